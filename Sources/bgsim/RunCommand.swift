import ScenarioKit

/// `bgsim run FILE [--trace-out F] [--seed N] [--quiet]`: load and validate, then simulate.
enum RunCommand {
  static var command: Command {
    Command(
      name: "run", synopsis: "bgsim run FILE [--trace-out F] [--seed N] [--quiet]",
      summary: "Run one scenario: print its timeline and whether its expectations hold.",
      details: """
        Arguments:
          FILE             the scenario, a JSON file (docs/scenario-format.md describes it)

        Options:
          --trace-out F    also write the trace to F as JSON Lines, one event a line; with F
                           '-' the trace goes to standard output and everything else to
                           standard error
          --seed N         use seed N instead of the scenario's own (an integer from 0 to
                           18446744073709551615)
          -q, --quiet      print only the expectation results
        \(BudgetOptions.help)
          -h, --help       show this help

        The format: docs/scenario-format.md; the rules the simulation follows: docs/behavior.md.

        Exit codes: 0 all expectations hold, 1 one failed, 2 invalid scenario, usage, or a run
        that used up a budget; 74 output could not be written. See docs/reliability.md.
        """,
      flags: ["--quiet"],
      options: [.init(name: "--trace-out", valueName: "F"), .init(name: "--seed", valueName: "N")]
        + BudgetOptions.options,
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
      let problem =
        arguments.positionals.isEmpty
        ? "missing the scenario FILE" : "expected one scenario FILE, found \(arguments.positionals.count)"
      throw .usage(problem, command: command.name)
    }
    var seed: UInt64?
    if let text = arguments.options["--seed"] {
      guard let value = UInt64(text) else {
        throw .usage(
          "--seed expects an integer from 0 to \(UInt64.max), found '\(text)'", command: command.name)
      }
      seed = value
    }
    if let traceOut = arguments.options["--trace-out"] {
      try OutputGuard.refuseOverwritingInputs(
        outputs: [("--trace-out", traceOut)], inputs: [file], command: command)
    }
    let budget = try BudgetOptions.budget(arguments, command: command)
    var scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(path: file)
    } catch {
      throw .invalidScenario(error)
    }
    if let seed { scenario.seed = seed }
    let options = RunOptions(
      file: file, traceOut: arguments.options["--trace-out"], seed: seed,
      quiet: arguments.flags.contains("--quiet"), budget: budget)
    return simulateLoadedScenario(scenario, options: options)
  }
}
