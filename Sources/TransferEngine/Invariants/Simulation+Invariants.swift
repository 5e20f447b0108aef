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
  /// The engine's own bookkeeping is consistent (no negative counts).
  case engineConsistency
}

/// An invariant a run broke: which, when, what, and the trace lines that led to it.
public struct InvariantViolation: Error, Hashable, Sendable, CustomStringConvertible {
  public var invariant: Invariant
  public var time: SimTime
  public var message: String
  /// The last trace events before the violation, as JSON lines, oldest first.
  public var lastTrace: [String]

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
}

@_spi(FaultInjection)
public enum EngineFaultInjection {
  /// The fault a `Simulation` created in this task carries (read once, at `init`).
  @TaskLocal public static var fault: EngineFault?
}

extension Simulation {
  /// How many trace lines a violation keeps.
  static let violationTraceLines = 12

  /// Records a broken invariant (the first one wins) and stops the run after the current event.
  func violate(_ invariant: Invariant, _ message: String) {
    guard invariantViolation == nil else { return }
    let lines = trace.events.suffix(Self.violationTraceLines).map(\.jsonLine)
    let violation = InvariantViolation(invariant: invariant, time: now, message: message, lastTrace: lines)
    invariantViolation = violation
    stopRequested = true
    onInvariantViolation?(violation)
  }

  /// An impossible state: a recorded violation while invariants are checked, a trap otherwise.
  func inconsistency(_ invariant: Invariant, _ message: String) {
    if checksInvariants {
      violate(invariant, message)
    } else {
      preconditionFailure("internal inconsistency: \(message)")
    }
  }

  /// The invariants that can be checked from the state after an event.
  /// - Complexity: O(tasks + queues).
  func checkInvariants() {
    let last = checker.eventHandled(at: now)
    if now < last { violate(.timeMonotonic, "an event at \(now) after one at \(last)") }
    let flows = links.activeFlows
    if !network.isUp && (flows.down > 0 || flows.up > 0) {
      violate(.noBytesWhileOffline, "\(flows.down) down and \(flows.up) up transfers while offline")
    }
    var holding: [String: Int] = [:]
    for task in daemon.tasks {
      checkTask(task)
      if task.machine.isActive { holding[task.connectionKey ?? daemon.queueKey(task), default: 0] += 1 }
    }
    for key in daemon.waitQueueOrder {
      let running = daemon.running(key) ?? 0
      if running != holding[key, default: 0] {
        violate(
          .connectionAccounting,
          "'\(key)' counts \(running) connections but \(holding[key, default: 0]) tasks hold one")
      }
    }
    // Sorted, so which key a violation names never depends on dictionary order.
    for key in holding.keys.sorted() where daemon.running(key) == nil {
      violate(
        .connectionAccounting, "\(holding[key]!) tasks hold a connection to '\(key)', which has no queue")
    }
  }

  private func checkTask(_ task: SimURLSessionTask) {
    let endings = checker.endings(task.uid)
    if endings > 1 { violate(.taskCompletesOnce, "'\(task.name)' completed \(endings) times") }
    if task.isFinished != (endings == 1) {
      violate(
        .taskCompletesOnce, "'\(task.name)' is \(task.isFinished ? "" : "not ")done after \(endings) endings")
    }
    let completions = checker.completionsDelivered(task.uid)
    if completions > 1 {
      violate(.didCompleteOnce, "didComplete delivered \(completions) times for '\(task.name)'")
    }
    let downloads = checker.downloadsDelivered(task.uid)
    if downloads > 1 {
      violate(.downloadDeliveredOnce, "didFinishDownloading delivered \(downloads) times for '\(task.name)'")
    }
    let size = task.bytes.fetchingSize
    if task.fetchesBody && size > 0 && task.countOfBytesReceived > size {
      violate(.bytesWithinSize, "'\(task.name)' received \(task.countOfBytesReceived) of a \(size)-byte body")
    }
    let body = task.bytes.responseBody
    if !task.fetchesBody
      && (task.countOfBytesSent > task.uploadSize || task.countOfBytesReceived > max(body, 0))
    {
      violate(
        .bytesWithinSize,
        "'\(task.name)' sent \(task.countOfBytesSent) of \(task.uploadSize) and received "
          + "\(task.countOfBytesReceived) of a \(body)-byte response")
    }
    if task.machine.direction != nil, let problem = interfaceProblem(for: task.session.configuration) {
      violate(
        network.isUp ? .noBytesOnDisallowedInterface : .noBytesWhileOffline,
        "'\(task.name)' moves bytes while \(problem)")
    }
    if task.machine.isActive {
      let key = task.connectionKey ?? daemon.queueKey(task)
      let limit = connectionLimit(task)
      if let running = daemon.running(key), running > limit {
        violate(.connectionLimit, "\(running) connections to '\(key)', the limit is \(limit)")
      }
    }
  }

  /// Checks the start conditions of behavior.md at the moment a task starts or retries.
  func checkStart(_ task: SimURLSessionTask, firstStart: Bool) {
    let configuration = task.session.configuration
    if let problem = interfaceProblem(for: configuration) {
      violate(
        .startOnAllowedInterface, "'\(task.name)' \(firstStart ? "started" : "retried") while \(problem)")
    }
    guard firstStart, configuration.kind == .background else { return }
    if let date = task.earliestBeginDate, now < date {
      violate(.startAfterEarliestBegin, "'\(task.name)' started before its earliestBeginDate \(date)")
    }
    if task.createdInBackground && now < rateLimiter.expiry {
      violate(
        .startAfterRateLimiter,
        "'\(task.name)', created in the background, started before the rate limiter's expiry \(rateLimiter.expiry)"
      )
    }
    if task.isDiscretionary {
      var missing: [String] = []
      let rules = policy.discretionary
      if rules.requires.contains(.wifi) && !(network.isUp && !network.expensive && !network.constrained) {
        missing.append("an inexpensive, unconstrained interface")
      }
      if rules.requires.contains(.charging) && !power.charging { missing.append("external power") }
      if rules.avoidLowPowerMode && power.lowPowerMode { missing.append("Low Power Mode off") }
      if !missing.isEmpty {
        violate(
          .startOnlyWhenDiscretionary,
          "discretionary '\(task.name)' started without \(missing.joined(separator: ", "))")
      }
    }
  }

  /// Why the network may not carry the session's bytes, or nil; written apart from
  /// `interfaceBlock` so the invariant does not just repeat the code it checks.
  private func interfaceProblem(for configuration: SessionConfiguration) -> String? {
    switch network.interface {
    case .none: return "offline"
    case .cellular where !configuration.allowsCellularAccess:
      return "on cellular, which the session does not allow"
    default: break
    }
    if network.expensive && !configuration.allowsExpensiveNetworkAccess {
      return "on an expensive interface, which the session does not allow"
    }
    if network.constrained && !configuration.allowsConstrainedNetworkAccess {
      return "on a constrained interface, which the session does not allow"
    }
    return nil
  }

  /// Checks a trace event as it is recorded: delegate calls and background launches.
  func observeForInvariants(_ kind: String, _ fields: [TraceField]) {
    if kind.hasPrefix("delegate.") && !lifecycle.state.isRunning {
      violate(.delegateOnlyWhileRunning, "\(kind) while the app is \(lifecycle.state.rawValue)")
    }
    if kind == "app.launch" || kind == "app.resume",
      fields.contains(TraceField("reason", .string("background")))
    {
      if lifecycle.forceQuit { violate(.noBackgroundLaunch, "\(kind) in the background after a force quit") }
      if !deviceModel.backgroundAppRefresh {
        violate(.noBackgroundLaunch, "\(kind) in the background with Background App Refresh off")
      }
    }
  }

  /// A `handleEvents` completion handler was called (`callCount` already counts this call).
  func checkCompletionHandlerCall(_ handler: BackgroundCompletionHandler) {
    if handler.callCount > 1 {
      violate(
        .completionHandlerOnce,
        "the completion handler for '\(handler.identifier)' of wake \(handler.wakeNumber) was called "
          + "\(handler.callCount) times")
    }
  }

  /// The invariants that hold only once the run is over: every completed download reached the
  /// app, is still queued for it, or a lint says it was lost; and every ended task's bytes add up.
  /// Call after the last `run(until:)`; does nothing when invariants are off or one already broke.
  public func checkFinalInvariants() {
    guard checksInvariants, invariantViolation == nil else { return }
    let lintedSessions = Set(
      trace.events.filter {
        $0.is(.lint) && $0["rule"] == .string(LintRule.sessionNotRecreated.rawValue)
      }
      .compactMap { $0["session"]?.description })
    for task in daemon.tasks {
      if task.isDownload && checker.finished(task.uid) && checker.downloadsDelivered(task.uid) == 0 {
        let queued = task.session.pending.contains { event in
          if case .didFinishDownloading(let t) = event { return t === task }
          return false
        }
        if !queued && !lintedSessions.contains(task.session.identifier) {
          violate(
            .downloadDeliveredOnce,
            "'\(task.name)' finished but its file was neither delivered, queued nor linted lost")
        }
      }
      guard task.isFinished else { continue }
      if task.fetchesBody {
        if task.bytesOnWire + task.inheritedBytes != task.countOfBytesReceived + task.bytesWasted {
          violate(
            .bytesConserved,
            "'\(task.name)': \(task.bytesOnWire) on the wire + \(task.inheritedBytes) from resume data != "
              + "\(task.countOfBytesReceived) received + \(task.bytesWasted) wasted")
        }
      } else if task.bytesOnWire != task.countOfBytesSent + task.countOfBytesReceived + task.bytesWasted {
        violate(
          .bytesConserved,
          "'\(task.name)': \(task.bytesOnWire) on the wire != \(task.countOfBytesSent) sent + "
            + "\(task.countOfBytesReceived) received + \(task.bytesWasted) wasted")
      }
    }
  }
}
