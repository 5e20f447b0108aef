import SimKernel

/// The engine's invariants, checked beside the engine rather than inside it.
///
/// The facade tells the checker what happened (a task ended, a delivery, a trace record, a start)
/// and hands it an `EngineSnapshot` after each event; the checker keeps its own counters and
/// returns what it found. It never reads a component: everything it knows arrives as a value,
/// so a check cannot disturb the run it watches, and its state is not the engine's.
struct InvariantChecker {
  /// A broken invariant and what broke it.
  struct Finding: Equatable {
    var invariant: Invariant
    var message: String

    init(_ invariant: Invariant, _ message: String) {
      self.invariant = invariant
      self.message = message
    }
  }

  /// Per task uid: times it ended (must end at 1).
  private var endings: [Int] = []
  /// Per task uid: ended by finishing (the whole response arrived).
  private var finishedOK: [Bool] = []
  /// Per task uid: `didComplete` and `didFinishDownloading` calls the app received.
  private var completions: [Int] = []
  private var downloads: [Int] = []
  /// The time of the last event checked.
  private(set) var lastEventTime = SimTime.zero

  // What the per-event check needs to read only the tasks and queues that may have changed
  // (`tasksToCheck`): the tasks' counters changed since the last check, and, as of each task's
  // last check, the queue whose connection it held (if any) and whether it moved bytes. Queues
  // are kept by `WaitQueue.Key` index, named only in a finding's message.
  private var touched: [Int32] = []
  private var heldKey: [WaitQueue.Key?] = []
  /// Per queue: the tasks holding its connection, as of their last checks.
  private var holders: [Set<Int32>] = []
  /// The tasks holding a connection whose pair has no queue, as of their last checks.
  private var holdersWithoutQueue: Set<Int32> = []
  private var movers: Set<Int32> = []
  /// The network at the last `tasksToCheck`.
  private var lastNetwork: NetworkState?
  /// Per queue: the connections it counted at the last check (-1 before its first).
  private var running: [Int] = []

  // MARK: What happened

  mutating func taskEnded(_ uid: Int32) {
    grow(to: uid)
    endings[Int(uid)] += 1
    touched.append(uid)
  }

  mutating func taskFinished(_ uid: Int32) {
    grow(to: uid)
    finishedOK[Int(uid)] = true
    touched.append(uid)
  }

  mutating func deliveredCompletion(_ uid: Int32) {
    grow(to: uid)
    completions[Int(uid)] += 1
    touched.append(uid)
  }

  mutating func deliveredDownload(_ uid: Int32) {
    grow(to: uid)
    downloads[Int(uid)] += 1
    touched.append(uid)
  }

  func endings(_ uid: Int32) -> Int { Int(uid) < endings.count ? endings[Int(uid)] : 0 }
  func finished(_ uid: Int32) -> Bool { Int(uid) < finishedOK.count && finishedOK[Int(uid)] }
  func completionsDelivered(_ uid: Int32) -> Int { Int(uid) < completions.count ? completions[Int(uid)] : 0 }
  func downloadsDelivered(_ uid: Int32) -> Int { Int(uid) < downloads.count ? downloads[Int(uid)] : 0 }

  private mutating func grow(to uid: Int32) {
    let count = Int(uid) + 1
    guard endings.count < count else { return }
    let more = count - endings.count
    endings += repeatElement(0, count: more)
    finishedOK += repeatElement(false, count: more)
    completions += repeatElement(0, count: more)
    downloads += repeatElement(0, count: more)
  }

  // MARK: Checks

  /// The tasks the check after this event must read, in uid order: those whose rows changed
  /// (`TaskTable.changedRows`) or whose counters here changed, those moving bytes when the
  /// network changed, and those holding a connection to a queue whose count changed. Any other
  /// task's checks read what they read at its last check, and passed then (a failure stops the
  /// run), so reading only these finds what reading every task finds, in the same order.
  ///
  /// `queues` holds the queues whose count may have changed since the last check
  /// (`Daemon.changedQueues`), with their counts now; a queue not in it counts what it counted.
  mutating func tasksToCheck(
    changedRows: [Int32], network: NetworkState, queues: [QueueCount]
  ) -> [Int32] {
    var uids = changedRows + touched
    touched.removeAll(keepingCapacity: true)
    if network != lastNetwork {
      uids += movers
      lastNetwork = network
    }
    for queue in queues where counted(queue.key) != queue.running {
      uids += holdersOf(queue.key)
    }
    return uids.sortedUnique()
  }

  /// The invariants that hold after every event, on the tasks of `snapshot` (every task, or
  /// those `tasksToCheck` names) and on the queues whose count or holders changed: the others
  /// compare what they compared at their last check, and passed then. O(tasks and queues in the
  /// snapshot).
  mutating func check<Tasks>(after snapshot: EngineSnapshot<Tasks>) -> [Finding] {
    var found: [Finding] = []
    let last = lastEventTime
    lastEventTime = snapshot.now
    if snapshot.now < last {
      found.append(Finding(.timeMonotonic, "an event at \(snapshot.now) after one at \(last)"))
    }
    let flows = snapshot.activeFlows
    if !snapshot.network.isUp && (flows.down > 0 || flows.up > 0) {
      found.append(
        Finding(.noBytesWhileOffline, "\(flows.down) down and \(flows.up) up transfers while offline"))
    }
    // The queues to compare with their holders: those whose count changed, and those a task
    // joined or left below.
    var queuesToCompare: [Int32] = []
    for queue in snapshot.queues {
      grow(queues: queue.key)
      running[Int(queue.key.index)] = queue.running
      queuesToCompare.append(queue.key.index)
    }
    for task in snapshot.tasks {
      check(task, on: snapshot.network, queueNames: snapshot.queueNames, into: &found)
      track(task, queuesToCompare: &queuesToCompare)
    }
    // In key order, the order the daemon made the queues, as a scan of every queue would find them.
    for index in queuesToCompare.sortedUnique() {
      let count = running[Int(index)]
      let holding = holders[Int(index)].count
      if count != holding {
        found.append(
          Finding(
            .connectionAccounting,
            "'\(snapshot.queueNames[Int(index)])' counts \(count) connections but \(holding) tasks hold one"))
      }
    }
    if !holdersWithoutQueue.isEmpty {
      found.append(
        Finding(
          .connectionAccounting,
          "\(holdersWithoutQueue.count) tasks hold a connection to a (session, host) pair that has no queue"))
    }
    return found
  }

  /// The count `key`'s queue had at the last check; -1 before its first.
  private func counted(_ key: WaitQueue.Key) -> Int {
    Int(key.index) < running.count ? running[Int(key.index)] : -1
  }

  private func holdersOf(_ key: WaitQueue.Key) -> Set<Int32> {
    Int(key.index) < holders.count ? holders[Int(key.index)] : []
  }

  /// Makes room for the queues up to `key`.
  private mutating func grow(queues key: WaitQueue.Key) {
    let count = Int(key.index) + 1
    guard running.count < count else { return }
    running += repeatElement(-1, count: count - running.count)
    holders += repeatElement([], count: count - holders.count)
  }

  /// Files `task` under the queue whose connection it holds (if any) and among the tasks
  /// moving bytes (if it does), in place of where its last check filed it; a queue it left or
  /// joined is added to `queuesToCompare`.
  private mutating func track(_ task: TaskFacts, queuesToCompare: inout [Int32]) {
    let uid = Int(task.uid)
    if heldKey.count <= uid { heldKey += repeatElement(nil, count: uid + 1 - heldKey.count) }
    let key = task.isActive ? task.connectionKey : nil
    if heldKey[uid] != key {
      if let old = heldKey[uid] {
        holders[Int(old.index)].remove(task.uid)
        queuesToCompare.append(old.index)
      }
      if let key {
        grow(queues: key)
        holders[Int(key.index)].insert(task.uid)
        queuesToCompare.append(key.index)
      }
      heldKey[uid] = key
    }
    if task.isActive && task.connectionKey == nil {
      holdersWithoutQueue.insert(task.uid)
    } else {
      holdersWithoutQueue.remove(task.uid)
    }
    if task.movesBytes { movers.insert(task.uid) } else { movers.remove(task.uid) }
  }

  private func check(
    _ task: TaskFacts, on network: NetworkState, queueNames: [String], into found: inout [Finding]
  ) {
    let ended = endings(task.uid)
    if ended > 1 { found.append(Finding(.taskCompletesOnce, "'\(task.name)' completed \(ended) times")) }
    if task.isFinished != (ended == 1) {
      found.append(
        Finding(
          .taskCompletesOnce, "'\(task.name)' is \(task.isFinished ? "" : "not ")done after \(ended) endings")
      )
    }
    let completed = completionsDelivered(task.uid)
    if completed > 1 {
      found.append(Finding(.didCompleteOnce, "didComplete delivered \(completed) times for '\(task.name)'"))
    }
    let downloaded = downloadsDelivered(task.uid)
    if downloaded > 1 {
      found.append(
        Finding(
          .downloadDeliveredOnce, "didFinishDownloading delivered \(downloaded) times for '\(task.name)'"))
    }
    if task.fetchesBody && task.fetchingSize > 0 && task.received > task.fetchingSize {
      found.append(
        Finding(
          .bytesWithinSize, "'\(task.name)' received \(task.received) of a \(task.fetchingSize)-byte body"))
    }
    if !task.fetchesBody && (task.sent > task.uploadSize || task.received > max(task.responseBody, 0)) {
      found.append(
        Finding(
          .bytesWithinSize,
          "'\(task.name)' sent \(task.sent) of \(task.uploadSize) and received \(task.received) of a "
            + "\(task.responseBody)-byte response"))
    }
    if task.movesBytes, let problem = Self.interfaceProblem(for: task.configuration, on: network) {
      found.append(
        Finding(
          network.isUp ? .noBytesOnDisallowedInterface : .noBytesWhileOffline,
          "'\(task.name)' moves bytes while \(problem)"
        ))
    }
    if task.isActive, let key = task.connectionKey, counted(key) > task.connectionLimit {
      found.append(
        Finding(
          .connectionLimit,
          "\(counted(key)) connections to '\(queueNames[Int(key.index)])', the limit is \(task.connectionLimit)"
        ))
    }
  }

  /// The start conditions of behavior.md, at the moment a task starts or retries.
  func checkStart(_ start: StartFacts) -> [Finding] {
    var found: [Finding] = []
    let request = start.request
    let conditions = start.conditions
    if let problem = Self.interfaceProblem(for: request.configuration, on: conditions.network) {
      found.append(
        Finding(
          .startOnAllowedInterface,
          "'\(start.task)' \(request.firstStart ? "started" : "retried") while \(problem)"))
    }
    guard request.firstStart, request.configuration.kind == .background else { return found }
    if let date = request.earliestBeginDate, conditions.now < date {
      found.append(
        Finding(.startAfterEarliestBegin, "'\(start.task)' started before its earliestBeginDate \(date)"))
    }
    if request.awaitsDelayedAnswer {
      found.append(
        Finding(
          .startAfterDelayedRequestAnswer,
          "'\(start.task)' started before the app answered willBeginDelayedRequest"))
    }
    if request.createdInBackground && conditions.now < conditions.rateLimiterExpiry {
      found.append(
        Finding(
          .startAfterRateLimiter,
          "'\(start.task)', created in the background, started before the rate limiter's expiry "
            + "\(conditions.rateLimiterExpiry)"))
    }
    if request.isDiscretionary {
      // Restated from behavior.md rather than calling Admission, so a slip there is caught.
      var missing: [String] = []
      let network = conditions.network
      let power = conditions.power
      let rules = conditions.discretionary
      var wanted = Set(rules.requires)
      if request.transferSize >= rules.largeTransferSize { wanted.formUnion(rules.largeTransferRequires) }
      if wanted.contains(.wifi) && !(network.isUp && !network.expensive && !network.constrained) {
        missing.append("an inexpensive, unconstrained interface")
      }
      if wanted.contains(.charging) && !power.charging { missing.append("external power") }
      if !power.charging && power.battery < rules.minimumBatteryLevel {
        missing.append("a battery level of at least \(rules.minimumBatteryLevel)")
      }
      if rules.avoidLowPowerMode && power.lowPowerMode { missing.append("Low Power Mode off") }
      if !missing.isEmpty {
        found.append(
          Finding(
            .startOnlyWhenDiscretionary,
            "discretionary '\(start.task)' started without \(missing.joined(separator: ", "))"))
      }
    }
    return found
  }

  /// A trace event as it is recorded: delegate calls only while the app runs, and no background
  /// launch after a force quit or with Background App Refresh off.
  func observe(_ kind: String, _ fields: [TraceField], in context: RecordContext) -> [Finding] {
    var found: [Finding] = []
    if kind.hasPrefix("delegate.") && !context.appState.isRunning {
      found.append(
        Finding(.delegateOnlyWhileRunning, "\(kind) while the app is \(context.appState.rawValue)"))
    }
    if kind == TraceKind.appLaunch.rawValue || kind == TraceKind.appResume.rawValue,
      fields.contains(TraceField("reason", .string("background")))
    {
      if context.forceQuit {
        found.append(Finding(.noBackgroundLaunch, "\(kind) in the background after a force quit"))
      }
      if !context.backgroundAppRefresh {
        found.append(
          Finding(.noBackgroundLaunch, "\(kind) in the background with Background App Refresh off"))
      }
    }
    return found
  }

  /// A `handleEvents` completion handler was called for the `calls`-th time.
  func completionHandlerCalled(session: String, wake: Int, calls: Int) -> [Finding] {
    guard calls > 1 else { return [] }
    return [
      Finding(
        .completionHandlerOnce,
        "the completion handler for '\(session)' of wake \(wake) was called \(calls) times")
    ]
  }

  /// The invariants that hold only once the run is over: every finished download reached the
  /// app, is still queued for it (`queuedDownloads`), or its session was linted lost
  /// (`lintedSessions`); and every ended task's bytes add up.
  func checkFinal<Tasks: Sequence<TaskFacts>>(
    tasks: Tasks, queuedDownloads: Set<Int32>, lintedSessions: Set<WrittenKey>
  ) -> [Finding] {
    var found: [Finding] = []
    for task in tasks {
      if task.isDownload && finished(task.uid) && downloadsDelivered(task.uid) == 0
        && !queuedDownloads.contains(task.uid) && !lintedSessions.contains(WrittenKey(task.sessionIdentifier))
      {
        found.append(
          Finding(
            .downloadDeliveredOnce,
            "'\(task.name)' finished but its file was neither delivered, queued nor linted lost"))
      }
      guard task.isFinished else { continue }
      if task.fetchesBody {
        if task.bytesOnWire + task.inheritedBytes != task.received + task.bytesWasted {
          found.append(
            Finding(
              .bytesConserved,
              "'\(task.name)': \(task.bytesOnWire) on the wire + \(task.inheritedBytes) from resume data != "
                + "\(task.received) received + \(task.bytesWasted) wasted"))
        }
      } else if task.bytesOnWire + task.inheritedBytes != task.sent + task.received + task.bytesWasted {
        // An upload made from resume data inherits the body bytes the server already has.
        found.append(
          Finding(
            .bytesConserved,
            "'\(task.name)': \(task.bytesOnWire) on the wire + \(task.inheritedBytes) from resume data != "
              + "\(task.sent) sent + \(task.received) received + \(task.bytesWasted) wasted"))
      }
    }
    return found
  }

  /// Why the network may not carry the session's bytes, or nil; written apart from
  /// `Admission.interfaceBlock` so the invariant does not just repeat the code it checks.
  static func interfaceProblem(for configuration: SessionConfiguration, on network: NetworkState) -> String? {
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
}
