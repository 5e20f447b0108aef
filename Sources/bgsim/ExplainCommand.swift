import ScenarioKit
import SimKernel
import SimReport

/// `bgsim explain FILE TASK [--seed N]`: why one task took as long as it did.
enum ExplainCommand {
  static var command: Command {
    Command(
      name: "explain", synopsis: "bgsim explain FILE TASK [--seed N]",
      summary: "Run a scenario and explain one task's time: what it waited for, and the trace behind it.",
      details: """
        Arguments:
          FILE             the scenario, a JSON file (docs/scenario-format.md describes it)
          TASK             the task's name as the trace spells it (`task=` in `bgsim run`)

        Options:
          --seed N         use seed N instead of the scenario's own (an integer from 0 to
                           18446744073709551615)
          -h, --help       show this help

        Prints when the task was created, first started, ended in the daemon and was delivered
        to the app; its time by activity (transferring, each kind of wait, retry backoff,
        awaiting delivery), largest first; then every interval of its life with the trace line
        that began it. `bgsim run` ends with the same account for the 20 slowest tasks; the
        activities are described in docs/behavior.md ("Why a task took as long as it did").

        Exit codes: 0 explained, 2 invalid scenario, unknown task or usage.
        """,
      options: [.init(name: "--seed", valueName: "N")],
      run: run)
  }

  static func run(_ arguments: ParsedArguments, _ command: Command) throws(CommandLineError) -> Int32 {
    guard arguments.positionals.count == 2 else {
      let problem =
        arguments.positionals.count < 2
        ? "expected a scenario FILE and a TASK name"
        : "expected FILE and TASK, found \(arguments.positionals.count) arguments"
      throw .usage(problem, command: command.name)
    }
    let file = arguments.positionals[0]
    let name = arguments.positionals[1]
    var scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(path: file)
    } catch {
      throw .invalidScenario(error)
    }
    if let text = arguments.options["--seed"] {
      guard let value = UInt64(text) else {
        throw .usage(
          "--seed expects an integer from 0 to \(UInt64.max), found '\(text)'", command: command.name)
      }
      scenario.seed = value
    }
    let result = ScenarioRunner.run(scenario)
    let accounts = TaskAccounts.compute(result)
    // By bytes, as the run tells task names apart.
    let matching = accounts.filter { $0.task.hasSameUTF8(name) }
    guard !matching.isEmpty else {
      let names = accounts.map(\.task)
      var message = "\(file): the run created no task named '\(name)'"
      if let note = NormalizationTwins(names).note(for: name) {
        message += "; \(note)"
      } else if let close = Suggestion.didYouMean(name, among: names) {
        message += "; did you mean '\(close)'?"
      } else if names.isEmpty {
        message += "; it created no tasks at all"
      } else {
        let listed = names.prefix(10).joined(separator: ", ")
        message += "; its tasks are \(listed)\(names.count > 10 ? ", ... (\(names.count) in all)" : "")"
      }
      throw .usage(message, command: command.name)
    }
    var out = "\(scenario.name) (seed \(result.seed))\n\n"
    for (i, account) in matching.enumerated() {
      if i > 0 { out += "\n" }
      out += AccountText.explain(account, events: result.trace.events)
    }
    Console.out(out, terminator: "")
    if let error = result.runError {
      Console.error("bgsim: the run stopped early: \(error)")
    }
    return ExitCode.ok
  }
}
