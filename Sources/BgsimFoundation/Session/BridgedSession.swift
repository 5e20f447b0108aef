import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `URLSession` subclass `SimulatedApplication.makeURLSession` returns: every member the
/// contract lists works on the engine's session; the superclass's own machinery is never used.
final class BridgedSession: URLSession, @unchecked Sendable {
  weak var process: BridgeProcess?
  private let storedConfiguration: URLSessionConfiguration
  /// Retained until the session is invalidated, as Foundation does.
  private var storedDelegate: URLSessionDelegate?
  private let queue: OperationQueue
  /// Runs delegate calls on `queue` when the bridge made it (see `DeliveryLoop`).
  let deliveryLoop: DeliveryLoop?
  private(set) var engine: SimURLSession?
  private var adapter: SessionAdapter?
  /// The one Foundation task object per engine task (libraries attach their objects to it).
  private var tasksByEngine: [ObjectIdentifier: BridgedTaskObject] = [:]
  private var invalidated = false

  init(
    process: BridgeProcess?, configuration: URLSessionConfiguration, delegate: URLSessionDelegate?,
    delegateQueue: OperationQueue?
  ) {
    self.process = process
    self.ownerHost = process?.host
    self.madeLive = process != nil
    self.storedConfiguration = configuration
    self.storedDelegate = delegate
    if let delegateQueue {
      self.queue = delegateQueue
      self.deliveryLoop = nil
      // Marks its `underlyingQueue` now: the app's blocks there may run before the first wait.
      _ = QueueDrain.Target(queue: delegateQueue, loop: nil).underlying
    } else {
      let serial = OperationQueue()
      serial.maxConcurrentOperationCount = 1
      self.queue = serial
      self.deliveryLoop = DeliveryLoop(queue: serial)
    }
    #if canImport(Darwin)
      super.init()  // Deprecated since iOS 13 but available: Darwin's session factories cannot be chained to.
    #else
      super.init(configuration: .default, delegate: nil, delegateQueue: nil)
    #endif
    attachToEngine()
    engineIdentifier = engine?.identifier
  }

  private func attachToEngine() {
    guard let host = process?.liveHost, let simulation = host.simulation else { return }
    let adapter = SessionAdapter(session: self)
    let engineConfiguration = EngineConfiguration.make(from: storedConfiguration)
    host.noteBackgroundIdentifier(engineConfiguration, launch: process?.number ?? 0)
    do {
      engine = try AppContext(simulation: simulation).makeSession(
        configuration: engineConfiguration, delegate: adapter)
      self.adapter = adapter
      if engineConfiguration.kind == .background && storedDelegate == nil {
        simulation.bridgeLint(
          .backgroundSessionWithoutDelegate,
          LintRule.sessionWithoutDelegateMessage(engineConfiguration.identifier),
          [TraceField("session", .string(engineConfiguration.identifier))])
      }
    } catch {
      simulation.emitNote(
        "bridge.sessionRefused",
        [
          TraceField("session", .string(engineConfiguration.identifier)),
          TraceField("reason", .string(error.message)),
        ])
    }
  }

  /// A copy of the app's configuration. On Linux its `protocolClasses` is `[OfflineURLProtocol]`:
  /// the superclass's own networking picks its protocol from this property.
  override var configuration: URLSessionConfiguration {
    let copy = storedConfiguration.bridgeCopy()
    #if canImport(FoundationNetworking)
      copy.protocolClasses = [OfflineURLProtocol.self]
    #endif
    return copy
  }
  override var delegate: URLSessionDelegate? { storedDelegate }
  override var delegateQueue: OperationQueue { queue }
  var delegateQueueForDrain: OperationQueue { queue }
  var drainTarget: QueueDrain.Target { QueueDrain.Target(queue: queue, loop: deliveryLoop) }
  /// The simulation's bridge while this session's process lives; nil afterwards, and a call
  /// arriving then (from code that outlived the process) is linted once.
  var host: BridgeHost? {
    if let live = process?.liveHost { return live }
    // The bridge releasing the dead process's objects: their `deinit`s may call the session.
    guard !calledAfterDeath, !ProcessRelease.isUnderWay else { return nil }
    calledAfterDeath = true
    if let ownerHost {
      ownerHost.noteCallFromDeadProcess()
    } else if madeLive {
      ProcessRelease.noteCallAfterSimulation("URLSession '\(engineIdentifier ?? "?")'")
    }
    return nil
  }
  private var calledAfterDeath = false
  /// Made by a live process: a call once its bridge is gone means the `Simulation` was released.
  private let madeLive: Bool
  /// The engine session's identifier, kept for messages after the engine session is dropped.
  private var engineIdentifier: String?
  /// The bridge of the process that made this session, kept to lint calls after it ended.
  private weak var ownerHost: BridgeHost?

  /// The Foundation object for an engine task, made on first sight.
  func task(for engineTask: SimURLSessionTask) -> BridgedTaskObject {
    if let known = tasksByEngine[ObjectIdentifier(engineTask)] { return known }
    // The request an earlier process made it with, as the system keeps it; else one for its URL
    // (a task the app never made through the bridge).
    let request =
      host?.originalRequests.request(for: engineTask)
      ?? URLRequest(url: URL(string: engineTask.originalURL.string) ?? BridgedSession.placeholderURL)
    let core = TaskCore(session: self, engine: engineTask, request: request)
    let task: BridgedTaskObject
    switch engineTask.kind {
    case .download: task = BridgedDownloadTask(core: core)
    case .upload: task = BridgedUploadTask(core: core)
    case .data: task = BridgedDataTask(core: core)
    }
    tasksByEngine[ObjectIdentifier(engineTask)] = task
    return task
  }

  static let placeholderURL = URL(string: "https://invalid.invalid/")!

  // MARK: Making tasks

  override func downloadTask(with url: URL) -> URLSessionDownloadTask {
    downloadTask(with: URLRequest(url: url))
  }

  override func downloadTask(with request: URLRequest) -> URLSessionDownloadTask {
    host?.noteActivity()
    let method = request.httpMethod ?? "GET"
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.downloadTask(with: url, method: method)
    }
    let core = TaskCore(session: self, engine: made.task, request: request, refusal: made.refusal)
    return register(BridgedDownloadTask(core: core), core)
  }

  override func downloadTask(withResumeData resumeData: Data) -> URLSessionDownloadTask {
    host?.noteActivity()
    guard let host, let engine else {
      return refusedDownload(
        URLRequest(url: BridgedSession.placeholderURL), FoundationErrors.invalidResumeData(url: nil))
    }
    switch host.resumeStore.take(resumeData, container: host.container) {
    case .failure(let problem):
      if problem == .fromAnotherSimulation {
        host.lintStaleContainerPath(
          "<another simulation's container>/tmp/<its partial file>", use: "downloadTask(withResumeData:)")
      }
      host.simulation?.emitNote(
        "bridge.resumeDataRejected",
        [TraceField("session", .string(engine.identifier)), TraceField("problem", .string(problem.name))])
      let url = ResumeStore.url(in: resumeData)
      return refusedDownload(
        URLRequest(url: url ?? BridgedSession.placeholderURL), FoundationErrors.invalidResumeData(url: url))
    case .success(let (record, stored)):
      var request = URLRequest(url: record.url)
      request.httpMethod = "GET"
      let made = makeEngineTask(request) { session, _ throws(SimAPIMisuse) in
        try session.downloadTask(withResumeData: stored)
      }
      let core = TaskCore(session: self, engine: made.task, request: request, refusal: made.refusal)
      core.knownETag = record.entityTag
      core.knownLastModified = record.serverDownloadDate
      return register(BridgedDownloadTask(core: core), core)
    }
  }

  override func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
    host?.noteActivity()
    host?.checkContainerPath(fileURL, use: "uploadTask(with:fromFile:)")
    let size = BridgedSession.fileSize(fileURL)
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.uploadTask(with: url, fromFileOfSize: size)
    }
    let core = TaskCore(session: self, engine: made.task, request: request, refusal: made.refusal)
    return register(BridgedUploadTask(core: core), core)
  }

  override func uploadTask(with request: URLRequest, from bodyData: Data) -> URLSessionUploadTask {
    host?.noteActivity()
    let size = Int64(bodyData.count)
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.uploadTask(with: url, fromDataOfSize: size)
    }
    let core = TaskCore(session: self, engine: made.task, request: request, refusal: made.refusal)
    return register(BridgedUploadTask(core: core), core)
  }

  #if canImport(Darwin)
    // Upload resume data (iOS 17 / macOS 14): `BridgedSession+UploadResume.swift`. On Linux,
    // where Foundation lacks these methods, `UploadResumeAPI.swift` adds them.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    override func uploadTask(withResumeData resumeData: Data) -> URLSessionUploadTask {
      uploadTask(resumingFrom: resumeData, handler: nil)
    }

    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    override func uploadTask(
      withResumeData resumeData: Data,
      completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
    ) -> URLSessionUploadTask {
      uploadTask(resumingFrom: resumeData, handler: .data(completionHandler))
    }
  #endif

  /// A body from a stream has no size the engine could move: refused, like a task the engine
  /// refuses (it completes with -1002 once resumed, traced `bridge.taskRefused`).
  override func uploadTask(withStreamedRequest request: URLRequest) -> URLSessionUploadTask {
    host?.noteActivity()
    host?.simulation?.emitNote(
      "bridge.taskRefused",
      [
        TraceField("session", .string(engine?.identifier ?? "none")),
        TraceField("reason", .string("streamed uploads are not simulated; upload from a file")),
      ])
    let core = TaskCore(
      session: self, engine: nil, request: request,
      refusal: FoundationErrors.error(code: NSURLErrorUnsupportedURL, url: request.url))
    return register(BridgedUploadTask(core: core), core)
  }

  func makeEngineTask(
    _ request: URLRequest, _ make: (SimURLSession, String) throws(SimAPIMisuse) -> SimURLSessionTask
  ) -> (task: SimURLSessionTask?, refusal: NSError?) {
    guard let engine, let url = request.url else {
      return (nil, FoundationErrors.error(code: NSURLErrorUnsupportedURL, url: request.url))
    }
    do {
      let task = try make(engine, url.absoluteString)
      #if canImport(Darwin)
        // The request's own Low Data Mode setting (iOS 13+) can only make the task stricter than
        // its session; swift-corelibs-foundation's URLRequest has no such property.
        if !request.allowsConstrainedNetworkAccess { task.allowsConstrainedNetworkAccess = false }
      #endif
      return (task, nil)
    } catch {
      host?.simulation?.emitNote(
        "bridge.taskRefused",
        [TraceField("session", .string(engine.identifier)), TraceField("reason", .string(error.message))])
      return (nil, FoundationErrors.error(code: NSURLErrorUnsupportedURL, url: url))
    }
  }

  private func refusedDownload(_ request: URLRequest, _ error: NSError, handler: TaskHandler? = nil)
    -> URLSessionDownloadTask
  {
    let core = TaskCore(session: self, engine: nil, request: request, refusal: error, handler: handler)
    return register(BridgedDownloadTask(core: core), core)
  }

  func refusedUpload(_ request: URLRequest, _ error: NSError, handler: TaskHandler?)
    -> URLSessionUploadTask
  {
    let core = TaskCore(session: self, engine: nil, request: request, refusal: error, handler: handler)
    return register(BridgedUploadTask(core: core), core)
  }

  func register<T: BridgedTaskObject>(_ task: T, _ core: TaskCore) -> T {
    if let host, let now = host.simulation?.now { host.neverResumed.made(core, at: now) }
    if let engineTask = core.engine {
      tasksByEngine[ObjectIdentifier(engineTask)] = task
      host?.originalRequests.record(core.originalRequest, for: engineTask)
    } else {
      refusedTasks[ObjectIdentifier(core)] = task
    }
    return task
  }

  // MARK: Completion-handler factories and data tasks
  // Background sessions refuse completion handlers (on a device the call raises an exception:
  // the block could not survive the process); default sessions call them in place of the
  // delegate. Data tasks are in `BridgedSession+DataTasks.swift`.

  override func downloadTask(
    with url: URL, completionHandler: @escaping @Sendable (URL?, URLResponse?, Error?) -> Void
  ) -> URLSessionDownloadTask {
    downloadTask(with: URLRequest(url: url), completionHandler: completionHandler)
  }

  override func downloadTask(
    with request: URLRequest, completionHandler: @escaping @Sendable (URL?, URLResponse?, Error?) -> Void
  ) -> URLSessionDownloadTask {
    host?.noteActivity()
    let handler = TaskHandler.download(completionHandler)
    if let refusal = refuseConvenience("downloadTask(with:completionHandler:)", request) {
      return refusedDownload(request, refusal, handler: handler)
    }
    let method = request.httpMethod ?? "GET"
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.downloadTask(with: url, method: method)
    }
    let core = TaskCore(
      session: self, engine: made.task, request: request, refusal: made.refusal, handler: handler)
    return register(BridgedDownloadTask(core: core), core)
  }

  override func downloadTask(
    withResumeData resumeData: Data,
    completionHandler: @escaping @Sendable (URL?, URLResponse?, Error?) -> Void
  ) -> URLSessionDownloadTask {
    host?.noteActivity()
    let request = URLRequest(url: ResumeStore.url(in: resumeData) ?? BridgedSession.placeholderURL)
    // A default session has no daemon to keep partial downloads: resume data is a background feature here.
    let refusal =
      refuseConvenience("downloadTask(withResumeData:completionHandler:)", request)
      ?? FoundationErrors.invalidResumeData(url: request.url)
    return refusedDownload(request, refusal, handler: .download(completionHandler))
  }

  override func uploadTask(
    with request: URLRequest, fromFile fileURL: URL,
    completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
  ) -> URLSessionUploadTask {
    host?.noteActivity()
    let handler = TaskHandler.data(completionHandler)
    if let refusal = refuseConvenience("uploadTask(with:fromFile:completionHandler:)", request) {
      return refusedUpload(request, refusal, handler: handler)
    }
    let size = BridgedSession.fileSize(fileURL)
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.uploadTask(with: url, fromFileOfSize: size)
    }
    let core = TaskCore(
      session: self, engine: made.task, request: request, refusal: made.refusal, handler: handler)
    return register(BridgedUploadTask(core: core), core)
  }

  override func uploadTask(
    with request: URLRequest, from bodyData: Data?,
    completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
  ) -> URLSessionUploadTask {
    host?.noteActivity()
    let handler = TaskHandler.data(completionHandler)
    if let refusal = refuseConvenience("uploadTask(with:from:completionHandler:)", request) {
      return refusedUpload(request, refusal, handler: handler)
    }
    let size = Int64(bodyData?.count ?? 0)
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.uploadTask(with: url, fromDataOfSize: size)
    }
    let core = TaskCore(
      session: self, engine: made.task, request: request, refusal: made.refusal, handler: handler)
    return register(BridgedUploadTask(core: core), core)
  }

  // Data tasks: the engine's (`BridgedSession+DataTasks.swift`).

  override func dataTask(with url: URL) -> URLSessionDataTask { makeDataTask(URLRequest(url: url)) }
  override func dataTask(with request: URLRequest) -> URLSessionDataTask { makeDataTask(request) }
  override func dataTask(
    with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
  ) -> URLSessionDataTask {
    makeDataTask(URLRequest(url: url), completionHandler: completionHandler)
  }
  override func dataTask(
    with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
  ) -> URLSessionDataTask {
    makeDataTask(request, completionHandler: completionHandler)
  }

  // MARK: Task operations (called by the task objects)

  // In `BridgedSession+TaskOperations.swift`.
  var refusedTasks: [ObjectIdentifier: BridgedTaskObject] = [:]

  // MARK: Session operations

  override func getTasksWithCompletionHandler(
    _ completionHandler:
      @escaping @Sendable ([URLSessionDataTask], [URLSessionUploadTask], [URLSessionDownloadTask]) -> Void
  ) {
    host?.noteActivity()
    var data: [URLSessionDataTask] = []
    var uploads: [URLSessionUploadTask] = []
    var downloads: [URLSessionDownloadTask] = []
    engine?.getTasksWithCompletionHandler { engineData, engineUploads, engineDownloads in
      data = engineData.compactMap { self.task(for: $0) as? URLSessionDataTask }
      uploads = engineUploads.compactMap { self.task(for: $0) as? URLSessionUploadTask }
      downloads = engineDownloads.compactMap { self.task(for: $0) as? URLSessionDownloadTask }
    }
    post { [data, uploads, downloads] in completionHandler(data, uploads, downloads) }
  }

  override func getAllTasks(completionHandler: @escaping @Sendable ([URLSessionTask]) -> Void) {
    host?.noteActivity()
    var live: [SimURLSessionTask] = []
    engine?.getAllTasks { live = $0 }
    let tasks = live.map { task(for: $0) }
    post { completionHandler(tasks) }
  }

  override func invalidateAndCancel() { invalidate { $0.invalidateAndCancel() } }
  override func finishTasksAndInvalidate() { invalidate { $0.finishTasksAndInvalidate() } }

  private func invalidate(_ action: (SimURLSession) -> Void) {
    host?.noteActivity()
    guard !invalidated else { return }
    invalidated = true
    if let engine {
      // The engine calls `didBecomeInvalidWithError` after the last task's `didComplete`.
      action(engine)
      return
    }
    let delegate = storedDelegate
    post {
      DelegateCalls.didBecomeInvalid(delegate, self, nil)
      self.storedDelegate = nil
    }
  }

  /// The engine's `didBecomeInvalidWithError`: delivered, then the delegate is let go.
  func becameInvalid() {
    let delegate = storedDelegate
    deliver {
      DelegateCalls.didBecomeInvalid(delegate, self, nil)
      self.storedDelegate = nil
    }
  }

  // MARK: Delivery

  /// Runs delegate work on the delegate queue and waits for it (a callback from the engine);
  /// `meanwhile` runs on this thread while the delegate queue runs `work`.
  func deliver(meanwhile: (() -> Void)? = nil, _ work: @escaping () -> Void) {
    // The live host read once: each read of `host` is three weak loads.
    guard let process, let host = process.liveHost else { return }
    host.delegateCalls += 1
    process.deliver(on: queue, loop: deliveryLoop, host: host, meanwhile: meanwhile, work)
  }

  /// Queues a completion handler on the delegate queue: inside a drain it is picked up by it,
  /// otherwise (a call from the test's own code) the bridge waits for it at once.
  func post(_ work: @escaping () -> Void) {
    guard let process, let host = process.liveHost else { return }
    if process.isDraining {
      queue.addOperation(UncheckedBox(work).run)
    } else {
      process.deliver(on: queue, loop: deliveryLoop, host: host, work)
    }
  }

  /// The process ended: drop everything this session holds, and give the delivery loop's thread
  /// back now rather than after its idle timeout (a loop left waiting holds one of the few
  /// threads the next process's queues run on). The task objects go to `release` when given.
  func processDied(releasingTasksTo release: DeferredRelease?) {
    deliveryLoop?.stop()
    storedDelegate = nil
    adapter = nil
    engine = nil
    release?.add(tasksByEngine)
    tasksByEngine = [:]
    refusedTasks = [:]
  }
}
