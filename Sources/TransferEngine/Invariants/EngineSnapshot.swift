import SimKernel

/// What the invariant checker sees of the engine: values copied out of the components, never the
/// components themselves, so a check cannot change the engine and reads only what it states here.
///
/// The facade builds one after each event (`Engine.snapshot(of:queues:)`). Its tasks are a lazy view,
/// each task's facts made as the checker reaches it, so a snapshot costs no allocation per task;
/// a test hands the checker an array instead.
struct EngineSnapshot<Tasks: Sequence> where Tasks.Element == TaskFacts {
  var now: SimTime
  var network: NetworkState
  /// Transfers on the down and up links.
  var activeFlows: (down: Int, up: Int)
  /// Every task so far, in uid order.
  var tasks: Tasks
  /// The (session, host) queues whose connection count may have changed since the last
  /// snapshot (every queue in the first), in key order, with their counts now.
  var queues: [QueueCount]
  /// Every queue's pair, "identifier host", by key index: for messages only.
  var queueNames: [String]
}

/// A (session, host) queue and the connections it counts.
struct QueueCount: Equatable {
  var key: WaitQueue.Key
  var running: Int
}

/// One task as the checker sees it.
struct TaskFacts {
  var uid: Int32
  var name: String
  var isDownload: Bool
  /// A download or a data task: it fetches the resource's body (not an upload).
  var fetchesBody: Bool
  var isFinished: Bool
  /// Connecting or moving bytes: holding a connection.
  var isActive: Bool
  /// On a link now.
  var movesBytes: Bool
  /// When `isActive`, the (session, host) queue whose connection it holds: the one it opened, or
  /// its current pair's; nil when it is not active, or when that pair has no queue.
  var connectionKey: WaitQueue.Key?
  var connectionLimit: Int
  var configuration: SessionConfiguration
  var received: Int64
  var sent: Int64
  /// The body size of the response being fetched (0 before one).
  var fetchingSize: Int64
  var uploadSize: Int64
  var responseBody: Int64
  var bytesOnWire: Int64
  var inheritedBytes: Int64
  var bytesWasted: Int64
  var sessionIdentifier: String
}

/// A task that starts or retries and the conditions at that moment, for the start invariants:
/// the same facts admission decided on, which the checker judges by its own rules.
struct StartFacts {
  var task: String
  var request: Admission.Request
  var conditions: Admission.Conditions
}

/// What a trace record needs besides itself: the app's state when it was recorded.
struct RecordContext {
  var appState: AppState
  var forceQuit: Bool
  var backgroundAppRefresh: Bool
}
