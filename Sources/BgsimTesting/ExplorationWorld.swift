import BgsimFoundation

/// A world to explore: how to make the simulation (device, server, policy) for a seed, and what
/// the user does (the only script). Every explored run ends the same way: the simulation runs
/// to `duration`, the user opens the app, and it runs `settle` more.
public struct ExplorationWorld: @unchecked Sendable {
  /// The end of the world: the user opens the app then.
  public var duration: SimDuration
  /// How long the world runs after that launch before the outcome is read.
  public var settle: SimDuration
  /// Makes the simulation, without an app (the exploration installs it). Called from worker threads.
  public var make: (_ seed: UInt64) -> Simulation
  /// Schedules what the user does (`sim.schedule(at:)`). Called from worker threads.
  public var user: (Simulation) -> Void

  /// A world; `settle` defaults to one minute.
  public init(
    duration: SimDuration, settle: SimDuration = .minutes(1), make: @escaping (_ seed: UInt64) -> Simulation,
    user: @escaping (Simulation) -> Void
  ) {
    self.duration = duration
    self.settle = settle
    self.make = make
    self.user = user
  }
}
