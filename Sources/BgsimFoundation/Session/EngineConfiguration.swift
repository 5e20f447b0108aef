import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reads what the engine needs from the app's `URLSessionConfiguration`.
enum EngineConfiguration {
  static func make(from c: URLSessionConfiguration) -> SessionConfiguration {
    let background = c.isSimulatedBackground
    return SessionConfiguration(
      identifier: c.identifier ?? "default", kind: background ? .background : .default,
      isDiscretionary: c.isDiscretionary, sessionSendsLaunchEvents: c.sessionSendsLaunchEvents,
      allowsCellularAccess: c.allowsCellularAccess,
      allowsExpensiveNetworkAccess: c.allowsExpensiveNetworkAccess,
      allowsConstrainedNetworkAccess: c.allowsConstrainedNetworkAccess,
      timeoutIntervalForRequest: duration(c.timeoutIntervalForRequest, fallback: 60),
      timeoutIntervalForResource: duration(c.timeoutIntervalForResource, fallback: 604_800),
      httpMaximumConnectionsPerHost: c.httpMaximumConnectionsPerHost > 0
        ? c.httpMaximumConnectionsPerHost : nil,
      waitsForConnectivity: c.waitsForConnectivity, sharedContainerIdentifier: c.sharedContainerIdentifier)
  }

  /// Foundation treats 0, negative and non-finite timeouts as "use the default".
  static func duration(_ seconds: TimeInterval, fallback: TimeInterval) -> SimDuration {
    let value = seconds.isFinite && seconds > 0 ? min(seconds, 10 * 365 * 86_400) : fallback
    return .seconds(rounding: value)
  }
}
