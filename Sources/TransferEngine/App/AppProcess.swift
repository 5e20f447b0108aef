import SimKernel

/// The app's process as the engine holds it: the installed factory makes the app object at
/// every launch, and the engine drops it when the process ends (termination, force quit), so
/// state an app keeps only in memory is lost as on a device. Timers belong to one process.
struct AppProcess {
  /// Makes the app at each launch (`Simulation.install(factory:)`).
  var factory: (() -> AppUnderTest)?
  /// What installed the app through `install(host:factory:)` (BgsimFoundation's bridge), kept
  /// as long as the simulation: code outside the engine finds its side of this simulation here,
  /// not in a table of its own.
  var host: AnyObject?
  /// The running or suspended process's app; nil while the app is not running.
  private(set) var live: AppUnderTest?
  /// Counts launches; a timer or callback remembers the number of the process that made it.
  private(set) var number = 0
  /// App timers that came due while the process was suspended; they run at the next resume.
  private var lateTimers: [(AppContext) -> Void] = []
  /// The app's sandbox, made on first use; outlives every process, released with the simulation.
  private var containerStorage: ContainerDirectory?

  /// The container, made now if this is its first use.
  mutating func container() -> ContainerDirectory {
    if let existing = containerStorage { return existing }
    let made = ContainerDirectory()
    containerStorage = made
    return made
  }

  /// A new process: a fresh app from the factory.
  mutating func launch() -> AppUnderTest? {
    number += 1
    lateTimers = []
    live = factory?()
    return live
  }

  /// The process is gone: every reference to its objects and timers is dropped.
  mutating func end() {
    live = nil
    lateTimers = []
  }

  mutating func deferTimer(_ action: @escaping (AppContext) -> Void) { lateTimers.append(action) }

  mutating func takeLateTimers() -> [(AppContext) -> Void] {
    defer { lateTimers = [] }
    return lateTimers
  }
}
