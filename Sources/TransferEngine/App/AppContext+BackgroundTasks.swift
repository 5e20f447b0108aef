import SimKernel

extension AppContext {
  /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`: keeps the app running in
  /// the background until `endBackgroundTask`, for at most `backgroundTaskLimit` after it left
  /// the foreground. `expirationHandler` runs when that time is up; an assertion it does not end
  /// gets the app killed by the watchdog.
  public func beginBackgroundTask(name: String, expirationHandler: @escaping (AppContext) -> Void)
    -> BackgroundTaskIdentifier
  {
    simulation.beginBackgroundTask(name: name, expirationHandler: expirationHandler)
  }

  /// `UIApplication.endBackgroundTask(_:)`. Ending an identifier that is not open does nothing.
  public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    simulation.endBackgroundTask(identifier)
  }
}
