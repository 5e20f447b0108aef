import SafeOutput
import ScenarioKit
import SimKernel

/// `bgsim validate PATH... [--format F]`: check files against the format without running them.
enum ValidateCommand {
  static var command: Command {
    Command(
      name: "validate", synopsis: "bgsim validate PATH... [--format text|json|github]",
      summary: "Check scenario files against the format without running them.",
      details: """
        Arguments:
          PATH          a scenario file, or a directory searched like 'bgsim check' does

        Prints 'FILE: ok' on standard output for each valid file, and every problem of each
        invalid one on standard error as FILE:LINE:COL: error: json.path: message.

        Options:
          --format F    text (default); json: one JSON document on standard output with every
                        file and its problems; github: problems as GitHub Actions annotations
          -q, --quiet   print only the problems
          -h, --help    show this help

        Exit codes: 0 all files valid, 2 any invalid (or a PATH with no scenarios under it).
        See docs/scenario-format.md for the format.
        """,
      flags: ["--quiet"], options: [OutputFormat.option], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing the scenario FILE to validate", command: command.name)
    }
    let format = try OutputFormat.parse(arguments, command: command)
    let quiet = arguments.flags.contains("--quiet")
    var files: [String] = []
    for path in arguments.positionals {
      // A missing file is reported like any invalid one (exit 2), so each is named.
      if ScenarioFiles.find(under: path) == nil {
        files.append(path)
      } else {
        files += try ScenarioFiles.find(under: [path], command: command)
      }
    }
    var status = ExitCode.ok
    var items: [String] = []
    var valid = 0
    for file in files {
      var problems: [LocatedProblem] = []
      var warnings: [String] = []
      do {
        let scenario = try ScenarioLoader.load(path: file)
        valid += 1
        warnings = ScenarioWarnings.check(scenario)
      } catch {
        problems = error.problems.map(LocatedProblem.init)
        status = ScenarioErrors.exitCode
      }
      switch format {
      case .json:
        items.append(
          "{\"file\": \(JSONText.quoted(file)), \"valid\": \(problems.isEmpty), "
            + "\"problems\": [\(problems.map(\.json).joined(separator: ", "))]}")
      case .text, .github:
        if problems.isEmpty && !quiet { Console.out("\(TerminalText.escape(file)): ok") }
        for warning in warnings { Console.error(TerminalText.escape(warning)) }
        for problem in problems {
          for line in format.lines(problem) {
            if format == .github { Console.out(line) } else { Console.error(line) }
          }
        }
      }
    }
    if status != ExitCode.ok && format == .text { Console.error(Usage.formatHint) }
    if format == .json {
      Console.out(
        "{\"files\": [\n  " + items.joined(separator: ",\n  ") + "\n], \"valid\": \(valid), "
          + "\"invalid\": \(files.count - valid)}")
    }
    return status
  }
}
