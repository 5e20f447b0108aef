import ScenarioKit
import SweepKit

/// The tool's own usage and help texts (each command keeps its own in its file).
enum Usage {
  static let version = "bgsim \(build.version) (scenario format version 1)"
  /// The version recorded in sweep outputs; `sweep-merge` refuses shards of another.
  static let build = SweepBuild.current(version: "0.1.0")
  static let synopsis = "bgsim <command> [options]"
  /// The last line after a scenario's problems: where the format is described.
  static let formatHint = "bgsim: the scenario format is described in docs/scenario-format.md"

  static var help: String {
    let width = CommandTable.all.map(\.name.count).max() ?? 0
    let commands = CommandTable.all.map { command in
      "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.summary
    }
    return """
      usage: \(synopsis)

      A deterministic simulator of the iOS background transfer system.

      Commands:
      \(commands.joined(separator: "\n"))

      Options:
        -h, --help     show this help, or a command's help after its name
        -V, --version  print the version

      Exit codes: 0 ok, 1 an expectation failed, 2 invalid input or usage (an output that is
      the same file as an input too), 74 an output could not be written.
      See 'bgsim <command> --help' for the options of a command.
      """
  }
}

/// Dispatches the arguments to a command and turns failures into messages and exit codes.
enum BgsimCommandLine {
  static func main(_ arguments: [String]) -> Int32 {
    guard let first = arguments.first else {
      Console.error(Usage.help)
      return ExitCode.invalidInput
    }
    switch first {
    case "-h", "--help":
      Console.out(Usage.help)
      return ExitCode.ok
    case "--version", "-V":
      Console.out(Usage.version)
      return ExitCode.ok
    case "help":
      guard arguments.count > 1 else {
        Console.out(Usage.help)
        return ExitCode.ok
      }
      guard let command = CommandTable.named(arguments[1]) else {
        return ErrorRenderer.report(unknownCommand(arguments[1]))
      }
      Console.out(command.help)
      return ExitCode.ok
    default:
      break
    }
    if first.hasPrefix("-") {
      return ErrorRenderer.report(.usage("unknown option '\(first)'", command: nil))
    }
    guard let command = CommandTable.named(first) else { return ErrorRenderer.report(unknownCommand(first)) }
    let rest = Array(arguments.dropFirst())
    if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
      Console.out(command.help)
      return ExitCode.ok
    }
    do {
      let parsed = try ArgumentScanner(command: command).scan(rest)
      return try command.run(parsed, command)
    } catch {
      return ErrorRenderer.report(error)
    }
  }

  private static func unknownCommand(_ name: String) -> CommandLineError {
    let names = CommandTable.all.map(\.name)
    let hint = Suggestion.didYouMean(name, among: names).map { "; did you mean '\($0)'?" } ?? ""
    return .usage("unknown command '\(name)'\(hint)", command: nil)
  }
}
