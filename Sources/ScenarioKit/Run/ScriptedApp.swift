import SimKernel
import TransferEngine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a scenario's scripted app keeps across its processes, as a real app keeps it in its
/// container: the names of the tasks it made (the task objects are the daemon's, which outlive
/// processes, as `getAllTasks` hands them to a relaunched app) and the resume data it saved.
/// Also the run's bookkeeping of the script itself: reaction counters (`times`, `{n}` count
/// across the run) and the first problem that stops it. One per run; `ScriptedApp` is made
/// afresh from it at every launch (`Simulation.install(factory:)`).
final class ScriptedAppStore {
  let spec: AppSpec
  /// The spec's sessions and extensions by name.
  let lookup: AppSpecLookup
  unowned let simulation: Simulation
  /// The scenario's task handles, across relaunches, by name. Names are told apart by their bytes
  /// (`WrittenKey`), as the loader's duplicate check, the trace and the expectations tell them:
  /// `é` composed and decomposed name two tasks.
  fileprivate(set) var tasks: [WrittenKey: SimURLSessionTask] = [:]
  /// Resume data kept from `cancel(produceResumeData:)` or from a failed download's error, by
  /// task name.
  fileprivate var resumeData: [WrittenKey: (data: Data, session: String)] = [:]
  /// `{n}` counters, one per reaction.
  fileprivate var reactionCounts: [Int] = []
  /// The reactions by the callbacks they follow.
  let reactionIndex: ReactionIndex
  /// Challenges answered by each `didReceiveChallenge` entry (its `times`).
  fileprivate var challengeAnswerCounts: [Int] = []
  /// The `didReceiveChallenge` and `willBeginDelayedRequest` entries by task.
  let challengeAnswerIndex: TaskEntryIndex
  let delayedRequestAnswerIndex: TaskEntryIndex
  /// The first problem that makes the scenario impossible to play, with its JSON path.
  private(set) var runError: String?

  init(spec: AppSpec, simulation: Simulation) {
    self.spec = spec
    self.lookup = AppSpecLookup(spec)
    self.simulation = simulation
    self.reactionCounts = Array(repeating: 0, count: spec.behavior.reactions.count)
    self.reactionIndex = ReactionIndex(spec.behavior.reactions)
    self.challengeAnswerCounts = Array(repeating: 0, count: spec.behavior.challengeAnswers?.count ?? 0)
    self.challengeAnswerIndex = TaskEntryIndex(tasks: (spec.behavior.challengeAnswers ?? []).map(\.task))
    self.delayedRequestAnswerIndex = TaskEntryIndex(
      tasks: (spec.behavior.delayedRequestAnswers ?? []).map(\.task))
  }

  /// Keeps a task the app created under its name. Written in place on the store: a copy of
  /// the dictionary per task (a computed property's get-modify-set) made `count` N quadratic.
  func remember(_ task: SimURLSessionTask) { tasks[WrittenKey(task.name)] = task }

  /// Sets a new task's request fields (`earliestBegin`, expectations, description, priority),
  /// keeps it under its name and resumes it: the same for the app and its extensions.
  func start(_ task: SimURLSessionTask, _ request: TaskRequest, n: Int?, trigger: String?) {
    task.earliestBeginDate = request.earliestBegin?.resolve(now: simulation.now)
    task.countOfBytesClientExpectsToSend = request.expectsToSend ?? task.countOfBytesClientExpectsToSend
    task.countOfBytesClientExpectsToReceive = request.expectsToReceive
    task.taskDescription = request.description.map { Self.substitute($0, n, trigger) }
    if let priority = request.priority { task.priority = priority }
    if let constrained = request.allowsConstrainedNetworkAccess {
      task.allowsConstrainedNetworkAccess = constrained
    }
    remember(task)
    task.resume()
  }

  /// `text` with `{n}` and `{task}` filled in.
  static func substitute(_ text: String, _ n: Int?, _ trigger: String?) -> String {
    var text = text
    if let n { text = text.replacingAll("{n}", with: String(n)) }
    if let trigger { text = text.replacingAll("{task}", with: trigger) }
    return text
  }

  /// The scripted extensions' processes' state, by name (made on first use).
  private var extensionProcesses: [WrittenKey: ScriptedExtension] = [:]

  /// Performs a timeline entry's action in the extension `name`, or stops the run when it is
  /// not running.
  func perform(_ action: AppAction, inExtension name: String, path: String) {
    guard runError == nil else { return }
    guard simulation.extensionIsRunning(name) else {
      fail(
        "\(path): extension '\(name)' is not running at \(simulation.now), so it cannot perform "
          + "'\(action.name)'; add an 'openExtension' entry before it")
      return
    }
    guard let spec = lookup.extensionSpec(named: name) else { return }
    let process = extensionProcesses[WrittenKey(name)] ?? ScriptedExtension(spec: spec, store: self)
    extensionProcesses[WrittenKey(name)] = process
    process.perform(action, path: path)
  }

  /// The factory `Simulation.install(factory:)` calls at every launch.
  func makeApp() -> ScriptedApp { ScriptedApp(store: self) }

  /// Performs a timeline entry's app action in the live process, or stops the run when the app
  /// is not running (there is no process to do it).
  func perform(_ action: AppAction, path: String) {
    guard runError == nil else { return }
    guard let app = simulation.currentApp as? ScriptedApp, simulation.appState.isRunning else {
      fail(
        "\(path): the app is \(simulation.appState.rawValue) at \(simulation.now), so it cannot perform "
          + "'\(action.name)'; add a 'launch' entry before it")
      return
    }
    app.perform(action, path: path)
  }

  /// The reaction that ran most often (the first of equals), with how often: when a run
  /// exhausts its budget this is usually the loop.
  var busiestReaction: (reaction: Reaction, count: Int)? {
    var best: (Reaction, Int)?
    for (reaction, count) in zip(spec.behavior.reactions, reactionCounts) where count > (best?.1 ?? 0) {
      best = (reaction, count)
    }
    return best
  }

  func fail(_ message: String) {
    guard runError == nil else { return }
    runError = message
    simulation.requestStop()
  }
}

/// One process of the app a scenario's `app` section describes: plays `app.behavior`
/// (recreating sessions, keeping and calling the completion handler, moving files, `on`
/// reactions) and performs the timeline's app actions through the engine's URLSession-like API.
/// Made afresh at every launch; what it keeps in memory (session objects, completion handlers)
/// dies with the process, what survives is in its `ScriptedAppStore`.
///
/// Buggy behaviours (`storesCompletionHandler: false`, `callsCompletionHandler: "never"`, ...)
/// are played faithfully; the engine's lints say which rule the app broke.
final class ScriptedApp: AppUnderTest, SimURLSessionDelegate {
  let store: ScriptedAppStore
  var spec: AppSpec { store.spec }
  var simulation: Simulation { store.simulation }
  /// Live session objects by identifier. Identifiers and names are told apart by their bytes, as
  /// the loader's duplicate checks and the daemon tell them (`WrittenKey`).
  private var sessions: [WrittenKey: SimURLSession] = [:]
  private var handlers: [WrittenKey: BackgroundCompletionHandler] = [:]
  /// Open background-task assertions by name; this process's only (they die with it).
  private var backgroundTasks: [WrittenKey: BackgroundTaskIdentifier] = [:]
  private var runError: String? { store.runError }

  init(store: ScriptedAppStore) { self.store = store }

  private var context: AppContext { AppContext(simulation: simulation) }

  // MARK: AppUnderTest

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    if spec.behavior.recreatesSessionsOnLaunch {
      // Every declared entry, duplicates included: declaring one identifier twice plays the
      // app that makes two session objects for it (the engine lints that).
      // An extension's session is made only when the system hands the app its events (below):
      // made at every launch, it would take the session from the extension (-996).
      for (i, configuration) in spec.sessions.enumerated()
      where !store.lookup.isExtensionSession(configuration.identifier) {
        do {
          sessions[WrittenKey(configuration.identifier)] = try app.makeSession(
            configuration: configuration, delegate: self)
        } catch {
          fail("app.sessions[\(i)]: \(error.message)")
        }
      }
    }
    react(to: .didLaunch, task: nil)
  }

  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) {
    switch spec.behavior.callsCompletionHandler {
    case .immediately: completionHandler()
    case .afterEvents, .never:
      if spec.behavior.storesCompletionHandler { handlers[WrittenKey(identifier)] = completionHandler }
    }
    // The events of an extension's session come to the containing app, which makes the session
    // with the identifier it is handed to receive them.
    if spec.behavior.recreatesSessionsOnLaunch && store.lookup.isExtensionSession(identifier) {
      _ = session(identifier, path: "app.extensions")
    }
    react(to: .handleEvents, task: nil)
  }

  // MARK: SimURLSessionDelegate

  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) {
    if spec.behavior.movesDownloadedFile { location.move(to: "Documents/\(downloadTask.name)") }
    react(to: .didFinishDownloading, task: downloadTask.name)
  }

  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  {
    if let data = error?.resumeData {
      store.resumeData[WrittenKey(task.name)] = (data, task.sessionIdentifier)
    }
    react(to: .didComplete, task: task.name, error: error)
  }

  /// The scripted delegate implements the challenge methods when the scenario gives answers.
  var answersChallenges: Bool { spec.behavior.challengeAnswers != nil }

  /// The first entry that matches the task and has answers left (`times`), else default handling.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didReceive challenge: SimAuthenticationChallenge
  ) -> SimAuthChallengeDisposition {
    let entries = spec.behavior.challengeAnswers ?? []
    for i in store.challengeAnswerIndex.candidates(task: task.name) {
      let entry = entries[i]
      if let pattern = entry.task, !TracePattern.wildcardMatch(pattern, task.name) { continue }
      if let times = entry.times, store.challengeAnswerCounts[i] >= times { continue }
      store.challengeAnswerCounts[i] += 1
      return entry.answer
    }
    return .performDefaultHandling
  }

  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
    if spec.behavior.callsCompletionHandler == .afterEvents {
      handlers.removeValue(forKey: WrittenKey(session.identifier))?()
    }
    react(to: .didFinishEvents, task: nil)
  }

  /// The scripted delegate implements `willBeginDelayedRequest` when the scenario gives answers.
  var answersDelayedRequests: Bool { spec.behavior.delayedRequestAnswers != nil }

  /// The first answer whose pattern matches the task, else `continueLoading`.
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, willBeginDelayedRequestTo url: SimURL
  ) -> SimDelayedRequestDisposition {
    let answers = spec.behavior.delayedRequestAnswers ?? []
    guard
      let i = store.delayedRequestAnswerIndex.candidates(task: task.name).first(where: {
        answers[$0].task.map { TracePattern.wildcardMatch($0, task.name) } ?? true
      })
    else { return .continueLoading }
    let entry = answers[i]
    switch entry.answer {
    case .continueLoading: return .continueLoading
    case .cancel: return .cancel
    case .useNewRequest:
      let text = substitute(entry.url ?? "", nil, task.name)
      guard let newURL = SimURL(text), newURL.isHTTP else {
        fail("\(entry.path).url: '\(text)' is not an http or https URL once '{task}' is filled in")
        return .continueLoading
      }
      return .useNewRequest(url: newURL)
    }
  }

  /// The session let its delegate go; a reaction may make a new session object for the
  /// identifier (the next action that names it does).
  func urlSession(_ session: SimURLSession, didBecomeInvalidWithError error: SimURLError?) {
    let identifier = WrittenKey(session.identifier)
    if sessions[identifier] === session { sessions[identifier] = nil }
    react(to: .didBecomeInvalid, task: nil)
  }

  // MARK: Actions

  /// Makes a task for `request` with `make` (session, URL, name, all substituted) and starts it.
  private func create(
    _ request: TaskRequest, path: String, n: Int?, trigger: String?,
    make: (SimURLSession, String, String) throws(SimAPIMisuse) -> SimURLSessionTask
  ) {
    guard let session = session(request.session, path: path) else { return }
    let name = substitute(request.name, n, trigger)
    do {
      let task = try make(session, substitute(request.url, n, trigger), name)
      start(task, request, name: name, n: n, trigger: trigger)
    } catch { fail("\(path): \(error.message)") }
  }

  /// Performs one app action; `path` names the timeline entry or reaction for messages, `n`
  /// and `trigger` are what `{n}` and `{task}` stand for.
  func perform(_ action: AppAction, path: String, n: Int? = nil, trigger: String? = nil) {
    guard runError == nil else { return }
    // A timeline entry (no `n` yet) that creates tasks is `count` numbered actions, `{n}`
    // running from `firstNumber`; the same for every action that creates tasks. (Without
    // `count` the loader allows no `{n}`, so numbering a single action changes nothing.)
    if n == nil, let numbering = action.numbering {
      for i in 0..<numbering.count { perform(action, path: path, n: numbering.firstNumber + i) }
      return
    }
    guard simulation.appState.isRunning else {
      fail(
        "\(path): the app is \(simulation.appState.rawValue) at \(simulation.now), so it cannot perform "
          + "'\(action.name)'; add a 'launch' entry before it")
      return
    }
    switch action {
    case .download(let request):
      create(request, path: path, n: n, trigger: trigger) { session, url, name throws(SimAPIMisuse) in
        try session.downloadTask(with: url, name: name)
      }
    case .dataTask(let request):
      create(request, path: path, n: n, trigger: trigger) { session, url, name throws(SimAPIMisuse) in
        try session.dataTask(with: url, name: name)
      }
    case .upload(let request, let from, let size):
      create(request, path: path, n: n, trigger: trigger) { session, url, name throws(SimAPIMisuse) in
        from == .file
          ? try session.uploadTask(with: url, fromFileOfSize: size, name: name)
          : try session.uploadTask(with: url, fromDataOfSize: size, name: name)
      }
    case .cancel(let name, let produce):
      let name = substitute(name, n, trigger)
      guard let task = task(name, path: path) else { return }
      if produce {
        task.cancel(byProducingResumeData: { data in
          if let data { self.store.resumeData[WrittenKey(name)] = (data, task.sessionIdentifier) }
        })
      } else {
        task.cancel()
      }
    case .suspend(let name):
      task(substitute(name, n, trigger), path: path)?.suspend()
    case .resume(let name):
      task(substitute(name, n, trigger), path: path)?.resume()
    case .resumeFromData(let from, let name, let fallback, _, _):
      let from = substitute(from, n, trigger)
      let name = substitute(name, n, trigger)
      guard let data = store.resumeData[WrittenKey(from)] else {
        simulation.emitNote(
          .appResumeDataUnavailable,
          [TraceField("task", .string(from)), TraceField("path", .string(path))])
        if fallback == .download { downloadAgain(from, as: name, path: path) }
        return
      }
      guard let session = session(data.session, path: path) else { return }
      do {
        // An upload's resume data (iOS 17) goes to `uploadTask(withResumeData:)`.
        let isUpload = (try? ResumeDataContents(data.data))?.upload != nil
        let task =
          isUpload
          ? try session.uploadTask(withResumeData: data.data, name: name)
          : try session.downloadTask(withResumeData: data.data, name: name)
        store.remember(task)
        task.resume()
      } catch { fail("\(path): \(error.message)") }
    case .getAllTasks(let identifier):
      session(identifier, path: path)?.getAllTasks { _ in }
    case .invalidate(let identifier, let cancelTasks):
      guard let session = session(identifier, path: path) else { return }
      if cancelTasks { session.invalidateAndCancel() } else { session.finishTasksAndInvalidate() }
      sessions[WrittenKey(identifier)] = nil
    case .beginBackgroundTask(let name):
      let name = WrittenKey(name)
      let endsOnExpiry = spec.behavior.endsBackgroundTasksOnExpiry
      let identifier = context.beginBackgroundTask(name: name.text) { app in
        // The expiration handler: a correct app ends the task here.
        if endsOnExpiry, let identifier = self.backgroundTasks.removeValue(forKey: name) {
          app.endBackgroundTask(identifier)
        }
      }
      // Beginning a name again before ending it leaks the earlier one, as a stored identifier would.
      backgroundTasks[name] = identifier
    case .endBackgroundTask(let name):
      // Ending a name that is not open (never begun, or ended at expiry) does nothing, as in UIKit.
      if let identifier = backgroundTasks.removeValue(forKey: WrittenKey(name)) {
        context.endBackgroundTask(identifier)
      }
    case .submitContinuedProcessing, .reportContinuedProgress, .completeContinuedProcessing:
      performContinuedProcessing(action)
    }
  }

  /// `resumeFromData`'s fallback: the original task's URL again, in its session, from zero.
  private func downloadAgain(_ original: String, as name: String, path: String) {
    guard let old = task(original, path: path) else { return }
    guard let session = session(old.sessionIdentifier, path: path) else { return }
    do {
      let task = try session.downloadTask(with: old.originalURL.string, name: name)
      task.taskDescription = old.taskDescription
      store.remember(task)
      task.resume()
    } catch { fail("\(path): \(error.message)") }
  }

  private func start(
    _ task: SimURLSessionTask, _ request: TaskRequest, name: String, n: Int?, trigger: String?
  ) {
    store.start(task, request, n: n, trigger: trigger)
  }

  /// The live session object for `identifier`, creating it on first use in this process.
  private func session(_ identifier: String, path: String) -> SimURLSession? {
    if let live = sessions[WrittenKey(identifier)], !live.isInvalidated { return live }
    guard let configuration = store.lookup.configuration(for: identifier) else {
      fail("\(path): no session '\(identifier)' in app.sessions")
      return nil
    }
    do {
      let session = try context.makeSession(configuration: configuration, delegate: self)
      sessions[WrittenKey(identifier)] = session
      return session
    } catch {
      fail("\(path): \(error.message)")
      return nil
    }
  }

  private func task(_ name: String, path: String) -> SimURLSessionTask? {
    if let task = store.tasks[WrittenKey(name)] { return task }
    fail("\(path): no task named '\(name)' has been created by this point of the run")
    return nil
  }

  func react(to event: Reaction.Event, task: String?, error: SimURLError? = nil) {
    for i in store.reactionIndex.candidates(event, task: task) {
      let reaction = spec.behavior.reactions[i]
      if let pattern = reaction.task {
        guard let task, TracePattern.wildcardMatch(pattern, task) else { continue }
      }
      if let filter = reaction.error, !filter.matches(error) { continue }
      if let times = reaction.times, store.reactionCounts[i] >= times { continue }
      let n = reaction.firstNumber + store.reactionCounts[i]
      store.reactionCounts[i] += 1
      for (j, action) in reaction.actions.enumerated() {
        perform(action, path: "\(reaction.path).do[\(j)]", n: n, trigger: task)
      }
      // The callback's slow work, after its actions (the file is moved, then unzipped).
      if let takes = reaction.takes { context.spend(takes) }
    }
  }

  private func substitute(_ text: String, _ n: Int?, _ trigger: String?) -> String {
    ScriptedAppStore.substitute(text, n, trigger)
  }

  private func fail(_ message: String) { store.fail(message) }
}

extension AppAction {
  /// `(count, firstNumber)` of an action that creates tasks; nil for the others.
  var numbering: (count: Int, firstNumber: Int)? {
    switch self {
    case .download(let request), .upload(let request, _, _), .dataTask(let request):
      return (request.count, request.firstNumber)
    case .resumeFromData(_, _, _, let count, let first): return (count, first)
    // Every other action creates no task (`default`, so new actions need no entry here).
    default: return nil
    }
  }

  /// The action's name as the format writes it.
  var name: String {
    switch self {
    case .download: return "download"
    case .dataTask: return "dataTask"
    case .upload: return "upload"
    case .cancel: return "cancel"
    case .suspend: return "suspend"
    case .resume: return "resume"
    case .resumeFromData: return "resumeFromData"
    case .getAllTasks: return "getAllTasks"
    case .invalidate: return "invalidate"
    case .beginBackgroundTask: return "beginBackgroundTask"
    case .endBackgroundTask: return "endBackgroundTask"
    case .submitContinuedProcessing: return "submitContinuedProcessing"
    case .reportContinuedProgress: return "reportContinuedProgress"
    case .completeContinuedProcessing: return "completeContinuedProcessing"
    }
  }
}

extension String {
  /// Every occurrence of `target` replaced, without Foundation.
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    // ASCII text (every name and URL of the shipped scenarios) is searched byte by byte: the
    // generic search below costs tens of thousands of instructions per call, paid per task
    // that a `count` or a reaction creates. An ASCII target never splits a character there.
    if let replaced = replacingAllASCII(target, with: replacement) { return replaced }
    var out = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      out += rest[..<range.lowerBound]
      out += replacement
      rest = rest[range.upperBound...]
    }
    out += rest
    return out
  }

  /// `replacingAll` on UTF-8 bytes when both texts are ASCII; nil otherwise.
  private func replacingAllASCII(_ target: String, with replacement: String) -> String? {
    let text = Array(utf8)
    let pattern = Array(target.utf8)
    guard text.allSatisfy({ $0 < 0x80 }), pattern.allSatisfy({ $0 < 0x80 }) else { return nil }
    guard let first = pattern.first, text.contains(first) else { return self }
    var out: [UInt8] = []
    out.reserveCapacity(text.count)
    var i = 0
    while i < text.count {
      if text[i] == first, i + pattern.count <= text.count,
        text[i..<(i + pattern.count)].elementsEqual(pattern)
      {
        out.append(contentsOf: replacement.utf8)
        i += pattern.count
      } else {
        out.append(text[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
