import SimKernel

/// `URLSession.DelayedRequestDisposition`: the app's answer to `willBeginDelayedRequest`.
public enum SimDelayedRequestDisposition: Hashable, Sendable {
  /// Start the task with its request as it is.
  case continueLoading
  /// Start it with a new request: here, a new URL (a fresher feed, a signed link).
  case useNewRequest(url: SimURL)
  /// Cancel the task, as `cancel()` would: it fails with -999.
  case cancel

  /// The name the trace and the scenario format use.
  public var name: String {
    switch self {
    case .continueLoading: return "continueLoading"
    case .useNewRequest: return "useNewRequest"
    case .cancel: return "cancel"
    }
  }
}

/// Where a delayed task is with its `willBeginDelayedRequest` question (asked once per task).
enum DelayedRequestStage: Hashable, Sendable {
  case notAsked
  /// Queued for the app; the task waits with reason `delayedRequest`.
  case asked
  /// Answered (or never to be asked again): admission no longer waits for it.
  case answered
}

/// What the system does about a `willBeginDelayedRequest` question the app is not running to
/// answer (behavior.md, "Delayed requests"); no source settles it, so it is a knob.
public struct DelayedRequestPolicy: Hashable, Sendable {
  /// The daemon wakes or relaunches the app in the background to answer, as for an
  /// authentication challenge; false: the question waits until the app runs for another reason.
  public var wakesApp: Bool

  /// The default wakes the app, as for an authentication challenge.
  public init(wakesApp: Bool = true) { self.wakesApp = wakesApp }
}
