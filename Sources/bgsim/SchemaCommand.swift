import ScenarioKit

/// `bgsim schema`: the JSON Schema of scenario files, for editors.
enum SchemaCommand {
  static var command: Command {
    Command(
      name: "schema", synopsis: "bgsim schema",
      summary: "Print the JSON Schema (draft 2020-12) of scenario files, for editor completion.",
      details: """
        The same schema ships as docs/scenario.schema.json. In VS Code, a scenario that starts with
          "$schema": "../docs/scenario.schema.json",
        (a path relative to the file) gets completion and checking as you type. The schema knows
        every section, field and name; 'bgsim validate' also checks references, ranges and units.

        Options:
          -h, --help    show this help
        """,
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    if let extra = arguments.positionals.first {
      throw .usage("unexpected argument '\(extra)'", command: command.name)
    }
    Console.out(ScenarioSchema.text, terminator: "")
    return ExitCode.ok
  }
}
