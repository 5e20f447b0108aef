import ScenarioKit
import TransferEngine

/// `bgsim policy --defaults`: the default policy as JSON, in the format's names.
enum PolicyCommand {
  static var command: Command {
    Command(
      name: "policy", synopsis: "bgsim policy --defaults",
      summary: "Print the default policy as JSON, ready to paste into a scenario's \"policy\".",
      details: """
        Options:
          --defaults    print the defaults of the behaviour reference (docs/behavior.md)
          -h, --help    show this help
        """,
      flags: ["--defaults"], run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    if let extra = arguments.positionals.first {
      throw .usage("unexpected argument '\(extra)'", command: command.name)
    }
    guard arguments.flags.contains("--defaults") else {
      throw .usage("missing --defaults (the only form of 'policy' in this version)", command: command.name)
    }
    Console.out(PolicyJSON.render(.defaults))
    return ExitCode.ok
  }
}
