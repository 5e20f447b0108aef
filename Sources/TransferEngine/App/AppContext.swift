import SimKernel

/// What the app under test can do and see: `UIApplication` and `URLSession` construction.
public struct AppContext {
  /// The simulation the app runs in, for what the context does not wrap.
  public unowned let simulation: Simulation

  /// A context for the app installed in `simulation` (the engine makes one at each call).
  public init(simulation: Simulation) { self.simulation = simulation }

  /// Simulated time now: what the app's clock would show, as time since the run began.
  public var now: SimTime { simulation.now }
  /// Foreground, background, suspended or not running: the app's lifecycle state now.
  public var state: AppState { simulation.appState }

  /// `URLSession(configuration:delegate:delegateQueue:)`. Throws while the app is not running.
  public func makeSession(configuration: SessionConfiguration, delegate: SimURLSessionDelegate?)
    throws(SimAPIMisuse)
    -> SimURLSession
  {
    try simulation.makeSession(configuration, delegate: delegate)
  }

  /// An app timer on simulated time: runs after `delay` if the app is running then, late (at
  /// the next resume) if it is suspended, and never if its process has ended meanwhile.
  public func after(_ delay: SimDuration, _ action: @escaping (AppContext) -> Void) {
    simulation.scheduleAppTimer(after: delay, action)
  }
}
