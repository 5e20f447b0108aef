import SafeOutput
import ScenarioKit

/// `bgsim validate FILE...`: check files against the format without running them.
enum ValidateCommand {
  static var command: Command {
    Command(
      name: "validate", synopsis: "bgsim validate FILE...",
      summary: "Check scenario files against the format without running them.",
      details: """
        Prints 'FILE: ok' on standard output for each valid file, and every problem of each
        invalid one on standard error, each naming the file, the JSON path and what was expected.

        Options:
          -h, --help    show this help

        Exit codes: 0 all files valid, 2 any invalid.
        """,
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw .usage("missing the scenario FILE to validate", command: command.name)
    }
    var status = ExitCode.ok
    for file in arguments.positionals {
      do {
        let scenario = try ScenarioLoader.load(path: file)
        Console.out("\(TerminalText.escape(file)): ok")
        for warning in ScenarioWarnings.check(scenario) { Console.error(TerminalText.escape(warning)) }
      } catch {
        status = ErrorRenderer.report(.invalidScenario(error))
      }
    }
    return status
  }
}
