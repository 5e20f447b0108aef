import SimKernel

/// The engine as the invariant checker reads it: values made from the components (a snapshot
/// after each event, the facts of a start, what a record happened in), so the checker never
/// holds a component.
extension Engine {
  /// Every task's facts, in uid order (the checks at the end of a run).
  var allTaskFacts: LazyMapSequence<[SimURLSessionTask], TaskFacts> {
    daemon.tasks.lazy.map { self.facts($0) }
  }

  /// The engine after the current event with the facts of `tasks` and the counts of `queues`
  /// only: the per-event check reads what may have changed (`InvariantChecker.tasksToCheck`).
  func snapshot<Tasks: Sequence>(of tasks: Tasks, queues: [QueueCount])
    -> EngineSnapshot<LazyMapSequence<Tasks, TaskFacts>> where Tasks.Element == SimURLSessionTask
  {
    EngineSnapshot(
      now: now, network: links.network, activeFlows: links.activeFlows,
      tasks: tasks.lazy.map { self.facts($0) },
      queues: queues, queueNames: daemon.queueNames)
  }

  /// The queues whose count may have changed since the last call (`Daemon.changedQueues`), in
  /// key order, each once, with their counts now.
  func takeChangedQueueCounts() -> [QueueCount] {
    daemon.takeChangedQueues().sortedUnique().map { index in
      let key = WaitQueue.Key(index: index)
      return QueueCount(key: key, running: daemon.running(key))
    }
  }

  func facts(_ task: SimURLSessionTask) -> TaskFacts {
    TaskFacts(
      uid: task.uid, name: task.name, isDownload: task.isDownload, fetchesBody: task.fetchesBody,
      isFinished: task.isFinished,
      isActive: task.machine.isActive, movesBytes: task.machine.direction != nil,
      connectionKey: task.machine.isActive ? task.connectionKey ?? daemon.queueKey(task) : nil,
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
