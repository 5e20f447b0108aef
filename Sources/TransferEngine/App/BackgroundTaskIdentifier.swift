/// The app's handle on a background-task assertion (`UIBackgroundTaskIdentifier`).
public struct BackgroundTaskIdentifier: Hashable, Sendable {
  /// The number the simulation gave the assertion; 0 is `invalid`.
  public let rawValue: Int
  /// What `beginBackgroundTask` returns when the app cannot have one (it is not running).
  public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}
