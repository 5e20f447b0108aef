import SimKernel

/// Which process holds a session object: the app, or one of its extensions by name.
public enum SessionOwner: Hashable, Sendable {
  /// The containing app's process.
  case app
  /// An app extension's process (a share extension, say), named as the scenario names it.
  case appExtension(String)

  /// The name the trace gives the process (`app`, or the extension's name).
  public var traceName: String {
    switch self {
    case .app: return "app"
    case .appExtension(let name): return name
    }
  }
}
