import TransferEngine

/// `--max-events N`, `--max-tasks N`, `--max-events-per-instant N`, `--max-trace-events N`:
/// raising (or lowering) the budgets that stop a runaway run (`RunBudget`).
enum BudgetOptions {
  static let options: [Command.Option] = [
    .init(name: "--max-events", valueName: "N"), .init(name: "--max-tasks", valueName: "N"),
    .init(name: "--max-events-per-instant", valueName: "N"),
    .init(name: "--max-trace-events", valueName: "N"),
  ]

  /// The help lines, aligned like the other options.
  static let help = """
      --max-events N   stop a run after N engine events (default 2000000)
      --max-tasks N    stop a run that creates more than N tasks (default 200000)
      --max-events-per-instant N
                       stop a run after N events at one simulated instant (default 100000)
      --max-trace-events N
                       stop a run whose trace passes N events (default 1000000)
    """

  /// The budget the options give, the defaults for those left out.
  static func budget(_ arguments: ParsedArguments, command: Command) throws(CommandLineError) -> RunBudget {
    var budget = RunBudget.defaults
    func value(_ name: String) throws(CommandLineError) -> Int? {
      guard let text = arguments.options[name] else { return nil }
      guard let n = Int(text), n > 0 else {
        throw .usage("\(name) expects a positive number, found '\(text)'", command: command.name)
      }
      return n
    }
    if let n = try value("--max-events") { budget.maxEvents = n }
    if let n = try value("--max-tasks") { budget.maxTasks = n }
    if let n = try value("--max-events-per-instant") { budget.maxEventsAtOneInstant = n }
    if let n = try value("--max-trace-events") { budget.maxTraceEvents = n }
    return budget
  }
}
