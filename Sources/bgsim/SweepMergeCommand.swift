import SafeOutput
import ScenarioKit
import SweepKit

/// `bgsim sweep-merge DIR... [--out DIR]`: joins the outputs of `bgsim sweep --shard K/N`.
enum SweepMergeCommand {
  static var command: Command {
    Command(
      name: "sweep-merge", synopsis: "bgsim sweep-merge DIR... [--out DIR]",
      summary: "Merge the output directories of sharded sweeps into the files one whole sweep writes.",
      details: """
        Arguments:
          DIR              a directory written by 'bgsim sweep --shard K/N --out DIR'; give every
                           shard's, in any order

        Options:
          --out DIR        where to write the merged sweep (default: sweep-NAME, NAME the scenario's)
          -h, --help       show this help

        The shards must come from the same scenario content (its SHA-256; the path may be spelled
        differently), parameters, seeds, charts and bgsim version, and be shards 1 to N of one
        N, each once. Every field of sweep.json and every row of runs.csv is checked. The merged
        runs.csv, summaries and charts are byte for byte those of the same sweep run without
        --shard; its sweep.json lists the shards and how each ran instead of one execution.

        Exit codes: 0 merged, 2 usage or shards that do not make one sweep, 74 DIR could not be
        written (a full disk, a file in its place).
        """,
      options: [.init(name: "--out", valueName: "DIR")], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing the shard directories to merge", command: command.name)
    }
    // Joined with a file name, an empty path is the file system's root.
    if arguments.positionals.contains("") {
      throw .usage(
        "an empty path names no directory; give each shard's --out directory", command: command.name)
    }
    let manifest: SweepManifest
    let table: RunTable
    do {
      (manifest, table) = try SweepMerge.merge(arguments.positionals, version: Usage.build.version)
    } catch {
      throw .unavailable(error.message)
    }
    let out = arguments.options["--out"] ?? "sweep-\(manifest.name)"
    try OutputGuard.refuseOverwritingInputs(
      outputs: SweepOutput.fileNames.map { ("--out", OutputGuard.inFolder(out, $0)) },
      inputs: arguments.positionals.flatMap { shard in
        ["sweep.json", "runs.csv"].map { OutputGuard.inFolder(shard, $0) }
      }, command: command)
    do {
      try SweepOutput.write(manifest: manifest, table: table, to: out)
    } catch {
      throw .sweep(error)
    }
    let names = SweepOutput.files(manifest: manifest, table: table).map(\.name).sorted()
    Console.out(
      "merged \(arguments.positionals.count) directories, \(table.rows.count) runs; "
        + "wrote \(TerminalText.escape(out))/{\(names.joined(separator: ","))}")
    return ExitCode.ok
  }
}
