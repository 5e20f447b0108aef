import Foundation

extension SimulatedApplication {
  /// The live process's application: the stand-in for `UIApplication.shared`, for library code
  /// that reaches for the application instead of being handed it. Nil while no process of an
  /// installed app runs (before the first launch, after a termination, force quit or reboot
  /// until the next launch), and after the simulation is gone.
  ///
  /// Several simulations may run at once in one test process (Swift Testing runs tests in
  /// parallel). `shared` answers for the simulation whose code runs on the current thread: an
  /// app delegate method the bridge runs on the main thread, the thread that runs the simulation (a `Simulation.schedule` block, a test's own code between
  /// runs), one of its sessions' delegate queues, or the main thread while exactly one simulation
  /// waits there for app code; elsewhere, for the only simulation with a live process. When it
  /// cannot tell, it is nil: pass the `SimulatedApplication` the delegate gets instead.
  public static var shared: SimulatedApplication? {
    if let host = SharedApplicationHosts.hostRunningOnMain { return host.process?.application }
    let hosts = SharedApplicationHosts.hosts()
    let current = Thread.current
    // The simulation this thread runs (the later one when several ran on it), live or not.
    if let own = hosts.filter({ $0.runThread === current }).max(by: { $0.lastEntry < $1.lastEntry }) {
      return own.process?.application
    }
    if let own = hosts.first(where: { $0.process?.isOnDelegateQueue == true }) {
      return own.process?.application
    }
    let live = hosts.filter { $0.process != nil }
    if QueueDrain.isOnMainQueue {
      let waiting = live.filter { $0.process?.isDraining == true }
      if waiting.count == 1 { return waiting[0].process?.application }
    }
    return live.count == 1 ? live[0].process?.application : nil
  }
}

/// The bridge hosts `SimulatedApplication.shared` chooses among: like `UIApplication.shared`,
/// that property has no simulation to ask, so it looks at every live one. Each simulation keeps
/// its own host (`Simulation.installedHost`); this list only holds them weakly, and nothing else
/// looks a host up here.
enum SharedApplicationHosts {
  private struct Entry { weak var host: BridgeHost? }
  nonisolated(unsafe) private static var entries: [Entry] = []
  private static let lock = NSLock()

  /// `host`'s simulation was just given an app; entries of released hosts are dropped.
  static func add(_ host: BridgeHost) {
    lock.lock()
    defer { lock.unlock() }
    entries.removeAll { $0.host == nil }
    entries.append(Entry(host: host))
  }

  /// The host whose app code the main thread runs now. The main queue is serial, so at most one
  /// simulation's app code runs there at a time, whatever thread each simulation runs on.
  nonisolated(unsafe) private static var mainThreadHost: BridgeHost?

  /// Runs `work` (on the main thread) as `host`'s app code.
  static func runningOnMain(_ host: BridgeHost, _ work: () -> Void) {
    lock.lock()
    let outer = mainThreadHost
    mainThreadHost = host
    lock.unlock()
    work()
    lock.lock()
    mainThreadHost = outer
    lock.unlock()
  }

  /// The host whose app code runs on the main thread now, if the caller is on it.
  static var hostRunningOnMain: BridgeHost? {
    guard QueueDrain.isOnMainQueue else { return nil }
    lock.lock()
    defer { lock.unlock() }
    return mainThreadHost
  }

  /// The hosts whose simulation is alive.
  static func hosts() -> [BridgeHost] {
    lock.lock()
    defer { lock.unlock() }
    return entries.compactMap { entry in entry.host.flatMap { $0.simulation == nil ? nil : $0 } }
  }
}
