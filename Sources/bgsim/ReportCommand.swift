import Foundation
import SafeOutput
import ScenarioKit
import SimReport

/// `bgsim report PATH... [--out DIR]`: an HTML page with an SVG timeline per scenario, and an index.
enum ReportCommand {
  static var command: Command {
    Command(
      name: "report", synopsis: "bgsim report PATH... [--out DIR]",
      summary: "Write an HTML report with an SVG timeline per scenario, and an index page.",
      details: """
        Arguments:
          PATH          a scenario file, or a directory searched for *.json (sorted by path)

        Each scenario is run and written as DIR/<name>.html: a self-contained page (no external
        assets) with lanes for the app state, network, power and rate-limiter delay, one bar per
        task coloured by phase (waiting and why, transferring, done, failed), the wakes, the
        expectation results and the lints. DIR/index.html links them all. Invalid scenarios are
        reported and skipped. A page belongs to its scenario file: reporting the file again
        replaces it, and another file's scenario of the same name gets <name>-2.html (never a
        name already used in DIR). Reports run at once into one DIR lock it in turn.

        Options:
          --out DIR     where to write; pages already there stay listed in its index.html
                        (default: a new folder bgsim-report, bgsim-report-2, ... here)
          -h, --help    show this help

        The shipped reports are regenerated with:
          swift run bgsim report Scenarios --out Reports/scenarios

        Exit codes: 0 written, 2 an invalid scenario or usage error (the valid ones are still
        written), 74 the report could not be written.
        """,
      options: [.init(name: "--out", valueName: "DIR")], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing a scenario FILE or directory to report on", command: command.name)
    }
    let files = try ScenarioFiles.find(under: arguments.positionals, command: command)
    let directory = arguments.options["--out"] ?? freshFolder()
    // The index files, and any input that is an .html file in DIR (a page could take its name).
    let outputs =
      ["index.html", "index.jsonl"]
      + files.map { ($0 as NSString).lastPathComponent }
      .filter { $0.lowercased().hasSuffix(".html") }
    try OutputGuard.refuseOverwritingInputs(
      outputs: outputs.map { ("--out", OutputGuard.inFolder(directory, $0)) }, inputs: files, command: command
    )
    var status = ExitCode.ok
    var results: [(file: String, result: RunResult)] = []
    for file in files {
      do {
        results.append((file, ScenarioRunner.run(try ScenarioLoader.load(path: file))))
      } catch {
        status = ErrorRenderer.report(.invalidScenario(error))
      }
    }
    do throws(FileWriteError) {
      let written = try ReportWriter.write(results: results, to: directory)
      for page in written { Console.out(TerminalText.escape(page)) }
      if arguments.options["--out"] == nil {
        Console.error(
          "bgsim: wrote the report into '\(TerminalText.escape(directory))'; open \(TerminalText.escape(directory))/index.html"
        )
      }
    } catch {
      throw .cannotWrite(error)
    }
    return status
  }

  /// The first of `bgsim-report`, `bgsim-report-2`, ... that does not exist yet.
  static func freshFolder() -> String {
    var name = "bgsim-report"
    var n = 2
    while FileManager.default.fileExists(atPath: name) {
      name = "bgsim-report-\(n)"
      n += 1
    }
    return name
  }
}
