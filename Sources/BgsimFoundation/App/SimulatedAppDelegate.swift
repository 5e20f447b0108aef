/// The app under test, as `UIApplicationDelegate` gives it to background-transfer code. The
/// factory given to `Simulation.installApp(_:)` makes a fresh one at every process launch.
public protocol SimulatedAppDelegate: AnyObject {
  /// `application(_:didFinishLaunchingWithOptions:)`: recreate background sessions here.
  func applicationDidFinishLaunching(_ application: SimulatedApplication)
  /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`: keep the handler
  /// and call it (on any queue) after `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void)
  /// `applicationDidEnterBackground(_:)`.
  func applicationDidEnterBackground(_ application: SimulatedApplication)
  /// `applicationWillEnterForeground(_:)`.
  func applicationWillEnterForeground(_ application: SimulatedApplication)
}

extension SimulatedAppDelegate {
  public func applicationDidEnterBackground(_ application: SimulatedApplication) {}
  public func applicationWillEnterForeground(_ application: SimulatedApplication) {}
}

/// `UIApplication.State`, plus the suspended state UIKit never reports to a running app.
public enum ApplicationState: String, Sendable {
  /// In the foreground.
  case active
  /// Running in the background.
  case background
  /// In memory but not running; also what a terminated process's application object reports.
  case suspended
}
