import SimKernel

/// The engine as the invariant checker reads it: values made from the components (a snapshot
/// after each event, the facts of a start, what a record happened in), so the checker never
/// holds a component.
extension Engine {
  /// The engine after the current event, as the invariant checker reads it, with every task.
  func snapshot() -> EngineSnapshot<LazyMapSequence<[SimURLSessionTask], TaskFacts>> {
    snapshot(of: daemon.tasks, queues: queueCounts)
  }

  /// The engine after the current event with the facts of `tasks` only: the per-event check
  /// reads the tasks that may have changed (`InvariantChecker.tasksToCheck`).
  func snapshot<Tasks: Sequence>(of tasks: Tasks, queues: [(key: String, running: Int)])
    -> EngineSnapshot<LazyMapSequence<Tasks, TaskFacts>> where Tasks.Element == SimURLSessionTask
  {
    EngineSnapshot(
      now: now, network: links.network, activeFlows: links.activeFlows,
      tasks: tasks.lazy.map { self.facts($0) },
      queues: queues)
  }

  /// Each (session, host) queue's key and the connections it counts, in the daemon's order.
  var queueCounts: [(key: String, running: Int)] {
    daemon.waitQueueOrder.map { (daemon.queueName($0), daemon.running($0)) }
  }

  func facts(_ task: SimURLSessionTask) -> TaskFacts {
    TaskFacts(
      uid: task.uid, name: task.name, isDownload: task.isDownload, fetchesBody: task.fetchesBody,
      isFinished: task.isFinished,
      isActive: task.machine.isActive, movesBytes: task.machine.direction != nil,
      connectionKey: task.connectionKey.map(daemon.queueName) ?? daemon.queueName(task),
      connectionLimit: connectionLimit(task),
      configuration: task.effectiveConfiguration, received: task.countOfBytesReceived,
      sent: task.countOfBytesSent, fetchingSize: task.bytes.fetchingSize, uploadSize: task.uploadSize,
      responseBody: task.bytes.responseBody, bytesOnWire: task.bytesOnWire,
      inheritedBytes: task.inheritedBytes,
      bytesWasted: task.bytesWasted, sessionIdentifier: task.session.identifier)
  }

  func startFacts(_ task: SimURLSessionTask, firstStart: Bool) -> StartFacts {
    var request = admissionRequest(task, running: 0)
    request.firstStart = firstStart
    return StartFacts(task: task.name, request: request, conditions: admissionConditions)
  }

  /// The downloads whose `didFinishDownloading` still waits in a session's queue.
  func queuedDownloads() -> Set<Int32> {
    var uids: Set<Int32> = []
    for record in daemon.sessionRecords {
      for case .didFinishDownloading(let task) in record.pending { uids.insert(task.uid) }
    }
    return uids
  }

  var recordContext: RecordContext {
    RecordContext(
      appState: lifecycle.state, forceQuit: lifecycle.forceQuit,
      backgroundAppRefresh: deviceModel.backgroundAppRefresh)
  }
}
