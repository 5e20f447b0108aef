import SimKernel

/// What the app under test can do and see: `UIApplication` and `URLSession` construction.
public struct AppContext {
  public unowned let simulation: Simulation

  public init(simulation: Simulation) { self.simulation = simulation }

  public var now: SimTime { simulation.now }
  public var state: AppState { simulation.appState }

  /// `URLSession(configuration:delegate:delegateQueue:)`. Throws while the app is not running.
  public func makeSession(configuration: SessionConfiguration, delegate: SimURLSessionDelegate?)
    throws(SimAPIMisuse)
    -> SimURLSession
  {
    try simulation.makeSession(configuration, delegate: delegate)
  }

  /// Runs `action` after `delay` if the app is then running (an app timer).
  public func after(_ delay: SimDuration, _ action: @escaping (AppContext) -> Void) {
    simulation.schedule(at: simulation.now + delay) { sim in
      if sim.appState.isRunning { action(AppContext(simulation: sim)) }
    }
  }
}
