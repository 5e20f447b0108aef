import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Mirrors `URLSession`: the app's handle on a session. For a background session the work lives
/// in the daemon; this object is the app's view of it and dies with the app's process.
public final class SimURLSession {
  /// A copy of the configuration the session was made with.
  public let configuration: SessionConfiguration
  /// The delegate, held strongly until the session is invalidated, as URLSession holds it.
  public private(set) weak var delegate: SimURLSessionDelegate?
  /// Keeps the delegate alive as URLSession does (it retains its delegate until invalidated).
  private var retainedDelegate: SimURLSessionDelegate?
  let record: DaemonSession
  /// The process that made this session object: the app or one of its extensions.
  public let owner: SessionOwner
  private weak var owningSimulation: Simulation?
  /// The simulation the session lives in; it must outlive the app's use of the session.
  var simulation: Simulation {
    guard let simulation = owningSimulation else {
      preconditionFailure("session '\(identifier)' used after its Simulation was released")
    }
    return simulation
  }
  /// Whether the app invalidated the session; an invalidated session makes no tasks.
  public private(set) var isInvalidated = false
  /// Invalidated with tasks still running: `didBecomeInvalidWithError` follows the last one.
  private(set) var awaitsTasksBeforeInvalid = false
  /// `didBecomeInvalidWithError` is queued and not yet delivered; the delegate is kept till then.
  private(set) var awaitsInvalidDelivery = false

  init(
    configuration: SessionConfiguration, delegate: SimURLSessionDelegate?, record: DaemonSession,
    simulation: Simulation?, owner: SessionOwner = .app
  ) {
    self.configuration = configuration
    self.delegate = delegate
    self.retainedDelegate = delegate
    self.record = record
    self.owner = owner
    self.owningSimulation = simulation
  }

  /// The configuration's identifier, the key of a background session across processes.
  public var identifier: String { configuration.identifier }

  /// `downloadTask(with:)`. `name` is the handle the trace uses (default `<session>#<id>`);
  /// `method` is the request's HTTP method (a download that is not a `GET` cannot produce
  /// resume data, and its `task.created` line says which method it used).
  public func downloadTask(with url: String, name: String? = nil, method: String = "GET") throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    try simulation.makeTask(in: self, kind: .download, url: url, name: name, resumeData: nil, method: method)
  }

  /// `dataTask(with:)`: the body comes to the delegate in memory. In a background session it
  /// works while the app runs and fails with -997 when the app is suspended or exits [A].
  public func dataTask(with url: String, name: String? = nil) throws(SimAPIMisuse) -> SimURLSessionTask {
    try simulation.makeTask(in: self, kind: .data, url: url, name: name, resumeData: nil)
  }

  /// `uploadTask(with:fromFile:)`: the only upload a background session carries past the app's exit.
  public func uploadTask(with url: String, fromFileOfSize size: Int64, name: String? = nil)
    throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    try simulation.makeTask(
      in: self, kind: .upload(fromFile: true, size: size), url: url, name: name, resumeData: nil)
  }

  /// `uploadTask(with:from:)`: from data in memory; in a background session it fails with -997
  /// once the app exits [A], and the run lints `uploadFromData`.
  public func uploadTask(with url: String, fromDataOfSize size: Int64, name: String? = nil)
    throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    try simulation.makeTask(
      in: self, kind: .upload(fromFile: false, size: size), url: url, name: name, resumeData: nil)
  }

  /// `downloadTask(withResumeData:)`: a range request from the offset the data records. Data
  /// this simulation did not produce (garbage, truncated, another run's) makes a task that
  /// fails with `cannotWriteToFile` when resumed, traced as `task.resumeDataRejected`.
  public func downloadTask(withResumeData data: Data, name: String? = nil) throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    try simulation.makeResumedTask(in: self, data: data, name: name)
  }

  /// `uploadTask(withResumeData:)` (iOS 17 and later): the upload continues from the bytes the
  /// server has (the draft's offset request, then the rest of the body). Data that is not an
  /// upload's, or that this simulation did not produce, makes a task that fails with
  /// `cannotWriteToFile` when resumed. Before iOS 17 the call is linted `apiUnavailable`.
  public func uploadTask(withResumeData data: Data, name: String? = nil) throws(SimAPIMisuse)
    -> SimURLSessionTask
  {
    let task = try simulation.makeResumedTask(in: self, data: data, name: name, upload: true)
    if !simulation.deviceModel.iosVersion.hasUploadResumeData {
      simulation.lintUploadResumeDataUnavailable("uploadTask(withResumeData:)", task: task.name)
    }
    return task
  }

  /// `getAllTasks(completionHandler:)`: the session's tasks that have not completed, called back at once.
  public func getAllTasks(_ completion: ([SimURLSessionTask]) -> Void) {
    completion(liveTasks())
  }

  /// `getTasksWithCompletionHandler(_:)`: the tasks that have not completed as Foundation's three
  /// arrays (data, upload, download), in creation order. Traced as `session.allTasks`, like
  /// `getAllTasks`.
  public func getTasksWithCompletionHandler(
    _ completion: (
      _ dataTasks: [SimURLSessionTask], _ uploadTasks: [SimURLSessionTask],
      _ downloadTasks: [SimURLSessionTask]
    ) -> Void
  ) {
    let live = liveTasks()
    completion(
      live.filter { $0.kind == .data }, live.filter { if case .upload = $0.kind { true } else { false } },
      live.filter(\.isDownload))
  }

  private func liveTasks() -> [SimURLSessionTask] {
    let live = record.unfinishedTasks()
    simulation.emit(
      .sessionAllTasks,
      [
        TraceField("session", .string(identifier)),
        TraceField("tasks", .string(live.map(\.name).joined(separator: ","))),
      ])
    return live
  }

  /// `finishTasksAndInvalidate()`: running tasks finish; no new tasks.
  public func finishTasksAndInvalidate() { simulation.invalidate(self, cancelTasks: false) }

  /// `invalidateAndCancel()`: cancels every task; no new tasks.
  public func invalidateAndCancel() { simulation.invalidate(self, cancelTasks: true) }

  /// The process that held this object ended: nothing more reaches its delegate.
  func markInvalidated() {
    isInvalidated = true
    retainedDelegate = nil
    awaitsTasksBeforeInvalid = false
    awaitsInvalidDelivery = false
  }

  /// The app invalidated the session: no new tasks; the delegate is kept until
  /// `didBecomeInvalidWithError`, after the tasks still running (`waitsForTasks`) end.
  func beginInvalidation(waitsForTasks: Bool) {
    isInvalidated = true
    awaitsTasksBeforeInvalid = waitsForTasks
  }

  /// `didBecomeInvalidWithError` is queued behind the session's other delegate events.
  func invalidationQueued() {
    awaitsTasksBeforeInvalid = false
    awaitsInvalidDelivery = true
  }

  /// Delivers `didBecomeInvalidWithError(nil)` once, then lets the delegate go, as URLSession does.
  /// `trace` records the call just before it is made.
  func deliverInvalidation(trace: () -> Void) {
    guard awaitsInvalidDelivery else { return }
    awaitsInvalidDelivery = false
    let delegate = self.delegate
    retainedDelegate = nil
    trace()
    delegate?.urlSession(self, didBecomeInvalidWithError: nil)
  }
}

extension SimURLSessionTask {
  /// `resume()`: hand the task to the daemon (or the in-process loader for default sessions).
  public func resume() { session.simulation?.resume(self) }

  /// `suspend()`: a resumed task stops (no traffic, no timeouts) until a balancing `resume()`;
  /// a download then continues from the bytes it has. Calls nest, as in Foundation.
  public func suspend() { session.simulation?.suspend(self) }

  /// `cancel()`.
  public func cancel() { _ = session.simulation?.cancelTask(self, produceResumeData: false) }

  /// `cancel(byProducingResumeData:)`: calls back with resume data when the download can resume
  /// (or, from iOS 17, the upload: `makeUploadResumeData`), else nil. On an upload before iOS 17
  /// the method does not exist: linted `apiUnavailable`, and the task is cancelled without data.
  public func cancel(byProducingResumeData completion: (Data?) -> Void) {
    if case .upload = kind, let simulation = session.simulation, !isFinished,
      !simulation.deviceModel.iosVersion.hasUploadResumeData
    {
      simulation.lintUploadResumeDataUnavailable("cancel(byProducingResumeData:)", task: name)
    }
    let contents = session.simulation?.cancelTask(self, produceResumeData: true)
    completion(contents?.data)
  }
}

extension SimURLSession {
  /// The simulation this session lives in (for delegates that want an `AppContext`).
  public var simulationForTests: Simulation { simulation }
}
