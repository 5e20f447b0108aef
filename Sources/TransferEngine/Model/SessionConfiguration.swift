import SimKernel

/// Mirrors `URLSessionConfiguration`: what kind of session and how its tasks may use the network.
public struct SessionConfiguration: Hashable, Sendable {
  /// `background` sessions run in the system daemon; `default` sessions run in the app's process.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Transfers run in the system daemon and outlive the app's process.
    case background
    /// Transfers run in the app's process: they pause while it is suspended and end with it.
    case `default`
  }

  /// `identifier`: background sessions with the same one, in a new process, get the old one's tasks and events.
  public var identifier: String
  /// Background or default.
  public var kind: Kind
  /// `isDiscretionary`: the system starts tasks only when conditions are good (Wi-Fi, power).
  public var isDiscretionary: Bool
  /// `sessionSendsLaunchEvents`: the system relaunches the app when the session's tasks end.
  public var sessionSendsLaunchEvents: Bool
  /// `allowsCellularAccess`: tasks may use cellular.
  public var allowsCellularAccess: Bool
  /// `allowsExpensiveNetworkAccess`: tasks may use expensive interfaces (cellular, hotspots).
  public var allowsExpensiveNetworkAccess: Bool
  /// `allowsConstrainedNetworkAccess`: tasks may run in Low Data Mode.
  public var allowsConstrainedNetworkAccess: Bool
  /// Idle timeout, reset whenever data moves (default 60 s).
  public var timeoutIntervalForRequest: SimDuration
  /// Bound on a task's whole life from its first resume (default 7 days).
  public var timeoutIntervalForResource: SimDuration
  /// nil: the policy's `maxConnectionsPerHost`.
  public var httpMaximumConnectionsPerHost: Int?
  /// Default sessions only: wait for an allowed interface instead of failing with -1009.
  /// Background sessions always wait [A].
  public var waitsForConnectivity: Bool
  /// `sharedContainerIdentifier`: the app group whose container an extension's background
  /// session downloads into. An extension's background session without one is invalidated at
  /// creation (-995) [A]; nil for the app's own sessions is fine.
  public var sharedContainerIdentifier: String?

  /// A configuration; the defaults are `URLSessionConfiguration`'s.
  public init(
    identifier: String, kind: Kind, isDiscretionary: Bool = false, sessionSendsLaunchEvents: Bool = true,
    allowsCellularAccess: Bool = true, allowsExpensiveNetworkAccess: Bool = true,
    allowsConstrainedNetworkAccess: Bool = true, timeoutIntervalForRequest: SimDuration = .seconds(60),
    timeoutIntervalForResource: SimDuration = .days(7), httpMaximumConnectionsPerHost: Int? = nil,
    waitsForConnectivity: Bool = false, sharedContainerIdentifier: String? = nil
  ) {
    self.identifier = identifier
    self.kind = kind
    self.isDiscretionary = isDiscretionary
    self.sessionSendsLaunchEvents = sessionSendsLaunchEvents
    self.allowsCellularAccess = allowsCellularAccess
    self.allowsExpensiveNetworkAccess = allowsExpensiveNetworkAccess
    self.allowsConstrainedNetworkAccess = allowsConstrainedNetworkAccess
    self.timeoutIntervalForRequest = timeoutIntervalForRequest
    self.timeoutIntervalForResource = timeoutIntervalForResource
    self.httpMaximumConnectionsPerHost = httpMaximumConnectionsPerHost
    self.waitsForConnectivity = waitsForConnectivity
    self.sharedContainerIdentifier = sharedContainerIdentifier
  }

  /// `URLSessionConfiguration.background(withIdentifier:)`.
  public static func background(withIdentifier identifier: String) -> SessionConfiguration {
    SessionConfiguration(identifier: identifier, kind: .background)
  }

  /// `URLSessionConfiguration.default`, named so traces can refer to it.
  public static func `default`(identifier: String = "default") -> SessionConfiguration {
    SessionConfiguration(identifier: identifier, kind: .default)
  }
}
