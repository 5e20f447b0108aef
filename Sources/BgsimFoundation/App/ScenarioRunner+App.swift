import ScenarioKit
import TransferEngine

extension ScenarioRunner {
  /// Runs the world of a scenario file (device, server, policy, the timeline's user and system
  /// actions, expectations) with your Swift app, made afresh at every launch by `makeDelegate`.
  /// Throws the file's problems, including timeline entries that script the app (`download`,
  /// `cancel`, ...) and `app.behavior.on` reactions: your app does its own work.
  public static func run(
    file: String, seed: UInt64? = nil,
    app makeDelegate: @escaping (SimulatedApplication) -> SimulatedAppDelegate
  ) throws(ScenarioErrors) -> RunResult {
    let scenario = try ScenarioLoader.load(path: file, swiftApp: true)
    return try run(scenario, seed: seed, installingApp: { $0.installApp(makeDelegate) })
  }
}
