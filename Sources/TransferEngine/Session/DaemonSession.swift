import SimKernel

/// The daemon's record of one session: its tasks, its task numbering, and the delegate events
/// waiting for the app. For a background session it outlives the app's process; the app's
/// `SimURLSession` object attaches to it when the app (re)creates a session with its identifier.
final class DaemonSession {
  let identifier: String
  var configuration: SessionConfiguration
  var isBackground: Bool { configuration.kind == .background }
  var nextTaskIdentifier = 1
  /// Every task the session created, in creation order.
  var tasks: [SimURLSessionTask] = []
  /// Tasks not yet finished.
  var outstanding = 0
  /// Tasks connecting or moving bytes (kept by `SimURLSessionTask.phase`).
  var activeTransfers = 0
  /// Delegate events not yet delivered, in the order they happened.
  var pending: [DelegateEvent] = []
  /// The app's live session object, while the app has one.
  var attached: SimURLSession?
  /// Set by `finishTasksAndInvalidate`/`invalidateAndCancel`; a new object may attach later.
  var invalidated = false
  /// A wake is owed: every task finished while the app was away.
  var wantsWake = false

  weak var simulation: Simulation?
  /// Position in `Simulation.sessionRecords` (the key of `deliver` events).
  let index: Int

  init(identifier: String, configuration: SessionConfiguration, index: Int, simulation: Simulation) {
    self.identifier = identifier
    self.configuration = configuration
    self.index = index
    self.simulation = simulation
  }
}

/// A delegate callback the daemon owes the app.
enum DelegateEvent {
  case didResumeAtOffset(SimURLSessionTask, offset: Int64, expectedTotal: Int64)
  case didFinishDownloading(SimURLSessionTask)
  case didReceiveData(SimURLSessionTask, bytes: Int64)
  case didComplete(SimURLSessionTask, error: SimURLError?)
}
