import ExplorationKit
import Foundation
import SafeOutput

/// `bgsim explore-merge DIR... [--out DIR]`: joins the outputs of `bgsim explore --shard K/N`
/// into what one whole exploration writes.
enum ExploreMergeCommand {
  static var command: Command {
    Command(
      name: "explore-merge", synopsis: "bgsim explore-merge DIR... [--out DIR]",
      summary:
        "Merge the output folders of sharded explorations into the files one whole exploration writes.",
      details: """
        Arguments:
          DIR              a folder written by 'bgsim explore --shard K/N --out DIR'; give every
                           shard's, in any order

        Options:
          --out DIR        where to write the merged exploration (default: explore-merged)
          -h, --help       show this help

        The shards must come from the same scenario content (its SHA-256; the path may be spelled
        differently), seeds and bgsim version, and be shards 1 to N of one N, each once. The
        merged findings.json, summary.txt and replay scenarios are byte for byte those of the
        same exploration run without --shard (findings.json names the scenario as shard 1 did).

        Exit codes: 0 no finding, 1 a finding, 2 usage or shards that do not make one
        exploration, 74 DIR could not be written.
        See docs/exploring.md.
        """,
      options: [.init(name: "--out", valueName: "DIR")], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing the shard folders to merge", command: command.name)
    }
    // Joined with a file name, an empty path is the file system's root.
    if arguments.positionals.contains("") {
      throw .usage("an empty path names no folder; give each shard's --out folder", command: command.name)
    }
    var shards: [(folder: String, result: ExploreResult)] = []
    let merged: ExploreResult
    do throws(ExploreError) {
      for folder in arguments.positionals {
        guard let data = FileManager.default.contents(atPath: OutputGuard.inFolder(folder, "shard.json"))
        else {
          throw ExploreError(
            "\(folder): no shard.json; the folder is not the output of 'bgsim explore --shard K/N --out \(folder)' (did it fail or is it still running?)"
          )
        }
        shards.append((folder, try ExploreMerge.read(data, folder: folder)))
      }
      merged = try ExploreMerge.merge(shards)
    } catch {
      throw .unavailable(TerminalText.escape(error.message))
    }
    let out = arguments.options["--out"] ?? "explore-merged"
    let files = merged.files
    try OutputGuard.refuseOverwritingInputs(
      outputs: files.map { ("--out", OutputGuard.inFolder(out, $0.name)) },
      inputs: arguments.positionals.map { OutputGuard.inFolder($0, "shard.json") }, command: command)
    try ExploreCommand.write(files, to: out)
    Console.out(
      "merged \(shards.count) folders, \(merged.runs) runs: \(merged.findings.count) finding"
        + (merged.findings.count == 1 ? "" : "s")
        + merged.findings.map { "\n  \($0.rule) (reached by \($0.reachedBy))" }.joined()
        + "\nwrote \(TerminalText.escape(out))/{\(files.map(\.name).joined(separator: ","))}")
    return merged.findings.isEmpty ? ExitCode.ok : ExitCode.expectationFailed
  }
}
