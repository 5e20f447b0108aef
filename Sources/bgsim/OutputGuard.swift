import SafeOutput

/// Refuses, before anything runs, an output that is the same file as one of the command's
/// inputs: `run x.json --trace-out x.json` would replace the scenario with its trace.
///
/// Files are compared by device and inode (`FileIdentity`), so `./x.json`, a link to it or a
/// hard link are caught too; outputs that do not exist yet cannot clash.
enum OutputGuard {
  /// Throws a usage error (exit 2) naming the option, the output and the input it would destroy.
  static func refuseOverwritingInputs(
    outputs: [(option: String, path: String)], inputs: [String], command: Command
  ) throws(CommandLineError) {
    for output in outputs {
      guard let clash = FileIdentity.firstClash(outputs: [output.path], inputs: inputs) else { continue }
      let same =
        clash.input == output.path
        ? "is an input of this command"
        : "is the same file as the input '\(TerminalText.escape(clash.input))'"
      throw .usage(
        "\(output.option) '\(TerminalText.escape(output.path))' \(same); writing it would destroy that "
          + "input: give another output name",
        command: command.name)
    }
  }

  /// `directory/name`, as the commands that write folders name their files.
  static func inFolder(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
