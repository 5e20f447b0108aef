import SimKernel

/// A rule of the engine itself (not of the app) that every run must keep.
///
/// Checked after every event when `Simulation.checksInvariants` is on (tests and fuzzing); a few
/// are checked at the moment they could break (a start, a completion, a delegate call) and
/// reported after the event. `bgsim fuzz` searches random scenarios for a run that breaks one.
public enum Invariant: String, CaseIterable, Hashable, Sendable {
  /// Simulated time never goes back.
  case timeMonotonic
  /// No background task starts before its `earliestBeginDate`.
  case startAfterEarliestBegin
  /// No delayed task whose delegate implements `willBeginDelayedRequest` starts before the app
  /// answered it.
  case startAfterDelayedRequestAnswer
  /// No task created while the app was not in the foreground starts before the rate limiter's expiry.
  case startAfterRateLimiter
  /// No discretionary task starts while the discretionary conditions fail.
  case startOnlyWhenDiscretionary
  /// No task starts (or retries) while no interface is up, or on one its session does not allow.
  case startOnAllowedInterface
  /// No bytes move while the network is down.
  case noBytesWhileOffline
  /// No bytes move on an interface the task's session does not allow.
  case noBytesOnDisallowedInterface
  /// At most `httpMaximumConnectionsPerHost` connections per (session, host).
  case connectionLimit
  /// Each (session, host) queue's connection count equals the tasks holding a connection there.
  case connectionAccounting
  /// Each task completes exactly once (finished, failed, cancelled or lost).
  case taskCompletesOnce
  /// `didComplete` reaches the app at most once per task.
  case didCompleteOnce
  /// Every completed download is delivered to the app exactly once, is still queued for it when
  /// the run ends, or is reported lost by a lint.
  case downloadDeliveredOnce
  /// No delegate call while the app is not running.
  case delegateOnlyWhileRunning
  /// A `handleEvents` completion handler is called at most once.
  case completionHandlerOnce
  /// Bytes received never exceed the resource (or response body) size; bytes sent never exceed
  /// the upload's size.
  case bytesWithinSize
  /// A force-quit app, or one with Background App Refresh off, gets no background launch or resume.
  case noBackgroundLaunch
  /// For each ended task, bytes on the wire (plus bytes from resume data) equal bytes kept plus
  /// bytes wasted by restarts.
  case bytesConserved
  /// A resource that requires a credential answers with a success status only to a task that
  /// presented a credential the server accepted.
  case protectedResourceNeedsCredential
  /// The engine's own bookkeeping is consistent (no negative counts).
  case engineConsistency
}

/// An invariant a run broke: which, when, what, and the trace lines that led to it.
public struct InvariantViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule that broke.
  public var invariant: Invariant
  /// Simulated time of the event after which it was found broken.
  public var time: SimTime
  /// What was wrong, with the task or session concerned.
  public var message: String
  /// The last trace events before the violation, as JSON lines, oldest first.
  public var lastTrace: [String]

  /// A violation of `invariant` found at `time`.
  public init(invariant: Invariant, time: SimTime, message: String, lastTrace: [String]) {
    self.invariant = invariant
    self.time = time
    self.message = message
    self.lastTrace = lastTrace
  }

  /// The invariant's name.
  public var name: String { invariant.rawValue }

  /// `invariant connectionLimit broken at 1m30s: ...`, then the last trace lines indented.
  public var description: String {
    (["invariant \(name) broken at \(time): \(message)"] + lastTrace.map { "  \($0)" })
      .joined(separator: "\n")
  }
}

/// Faults a test can inject into the engine to prove the invariants and the fuzzer catch them.
/// Never set in the product: the value is a task-local that is nil unless a test binds it.
@_spi(FaultInjection)
public enum EngineFault: String, Sendable, CaseIterable {
  /// The connection-limit check lets one task more than `httpMaximumConnectionsPerHost` connect.
  case connectionLimitOffByOne
  /// A task gets a protected resource without being challenged.
  case skipsAuthentication
}

@_spi(FaultInjection)
public enum EngineFaultInjection {
  /// The fault a `Simulation` created in this task carries (read once, at `init`).
  @TaskLocal public static var fault: EngineFault?
}
