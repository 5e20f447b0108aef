import TransferEngine

/// What `bgsim run` was asked for, besides the scenario itself.
public struct RunOptions: Sendable {
  /// The scenario file as named on the command line.
  public var file: String
  /// `--trace-out F`: where to write the trace as JSON Lines; nil writes none.
  public var traceOut: String?
  /// `--seed N`: overrides the scenario's seed. The `Scenario` handed to
  /// `simulateLoadedScenario` already carries it; kept here for reporting.
  public var seed: UInt64?
  /// `--quiet`: print only the expectation results, not the timeline.
  public var quiet: Bool

  /// `--max-events` and friends: the limits that stop a runaway run.
  public var budget: RunBudget

  public init(
    file: String, traceOut: String? = nil, seed: UInt64? = nil, quiet: Bool = false,
    budget: RunBudget = .defaults
  ) {
    self.budget = budget
    self.file = file
    self.traceOut = traceOut
    self.seed = seed
    self.quiet = quiet
  }
}
