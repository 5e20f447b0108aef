import SimKernel

/// Mirrors `URLSessionConfiguration`: what kind of session and how its tasks may use the network.
public struct SessionConfiguration: Hashable, Sendable {
  /// `background` sessions run in the system daemon; `default` sessions run in the app's process.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    case background
    case `default`
  }

  public var identifier: String
  public var kind: Kind
  public var isDiscretionary: Bool
  public var sessionSendsLaunchEvents: Bool
  public var allowsCellularAccess: Bool
  public var allowsExpensiveNetworkAccess: Bool
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

  public init(
    identifier: String, kind: Kind, isDiscretionary: Bool = false, sessionSendsLaunchEvents: Bool = true,
    allowsCellularAccess: Bool = true, allowsExpensiveNetworkAccess: Bool = true,
    allowsConstrainedNetworkAccess: Bool = true, timeoutIntervalForRequest: SimDuration = .seconds(60),
    timeoutIntervalForResource: SimDuration = .days(7), httpMaximumConnectionsPerHost: Int? = nil,
    waitsForConnectivity: Bool = false
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
