import SimKernel

/// Which process holds a session object: the app, or one of its extensions by name.
public enum SessionOwner: Hashable, Sendable {
  /// The containing app's process.
  case app
  /// An app extension's process (a share extension, say), named as the scenario names it.
  case appExtension(String)

  /// The name the trace gives the process (`app`, or the extension's name).
  public var traceName: String {
    switch self {
    case .app: return "app"
    case .appExtension(let name): return name
    }
  }
}

/// The app's extensions' processes. An extension runs while the user is in it; the system ends
/// it soon after the user leaves (`Policy.extensionEndsAfter`). Its background sessions' work
/// goes on in the daemon and their events go to the containing app (behavior.md, "App
/// extensions"). Runs are numbered so a stale end (the user came back) does nothing.
struct ExtensionProcesses {
  /// The extensions running now, by name, with the number of their run.
  private var running: [String: Int] = [:]
  /// Runs the user has left, waiting for the system to end them: run number -> name.
  private var closing: [Int: String] = [:]
  private var nextRun = 0

  func isRunning(_ name: String) -> Bool { running[name] != nil }

  /// Starts a run of `name`; false when it is already running (the user is back in it: a
  /// pending end is called off).
  mutating func open(_ name: String) -> Bool {
    if let run = running[name] {
      closing[run] = nil
      return false
    }
    nextRun += 1
    running[name] = nextRun
    return true
  }

  /// The user left `name`: the run to end later, or nil when it is not running or already left.
  mutating func close(_ name: String) -> Int? {
    guard let run = running[name], closing[run] == nil else { return nil }
    closing[run] = name
    return run
  }

  /// The system ends run `run`: its name, or nil when that run already ended or the user came back.
  mutating func end(run: Int) -> String? {
    guard let name = closing.removeValue(forKey: run), running[name] == run else { return nil }
    running[name] = nil
    return name
  }

  /// A device restart ends every extension: their names, sorted (a deterministic order).
  mutating func endAll() -> [String] {
    defer {
      running = [:]
      closing = [:]
    }
    return running.keys.sorted()
  }
}

extension Simulation {
  /// The user opens the app's extension `name` (a share sheet, say): its process starts. The
  /// extension makes sessions with `makeSession(inExtension:configuration:delegate:)`.
  public func openExtension(_ name: String) {
    guard extensions.open(name) else { return }
    emit(.extensionLaunch, [TraceField("name", .string(name))])
  }

  /// The user leaves the extension: the system ends its process `extensionEndsAfter` later.
  public func closeExtension(_ name: String) {
    guard let run = extensions.close(name) else { return }
    emit(.extensionClose, [TraceField("name", .string(name))])
    scheduler.schedule(.endExtension(run: run), after: policy.extensionEndsAfter)
  }

  /// Whether the extension `name` is running now.
  public func extensionIsRunning(_ name: String) -> Bool { extensions.isRunning(name) }

  func endExtension(run: Int) {
    guard let name = extensions.end(run: run) else { return }
    extensionEnded(name, reason: "system")
  }

  /// The extension's process is gone: its session objects die with it, the tasks that needed
  /// it (data tasks, uploads from data) fail with -997, and the containing app may be owed a
  /// wake for the sessions it held.
  func extensionEnded(_ name: String, reason: String) {
    emit(.extensionTerminate, [TraceField("name", .string(name)), TraceField("reason", .string(reason))])
    let owner = SessionOwner.appExtension(name)
    for record in daemon.sessionRecords where record.attached?.owner == owner {
      record.detachFromApp()
      for task in record.unfinishedTasks() where !task.isFinished && task.needsAppProcess {
        let holding = withdraw(task)
        fail(task, SimURLError(.backgroundSessionWasDisconnected), freeingConnection: holding)
      }
    }
    rescheduleLinks()
    requestWakeCheck()
  }

  /// `URLSession(configuration:delegate:delegateQueue:)` called in the extension `name`, which
  /// must be running. Only background sessions are modelled in an extension.
  public func makeSession(
    inExtension name: String, configuration: SessionConfiguration, delegate: SimURLSessionDelegate?
  ) throws(SimAPIMisuse) -> SimURLSession {
    try makeSession(configuration, delegate: delegate, owner: .appExtension(name))
  }

  /// Whether the process `owner` is running now (it can make sessions and tasks).
  func isRunning(_ owner: SessionOwner) -> Bool {
    switch owner {
    case .app: return lifecycle.state.isRunning
    case .appExtension(let name): return extensions.isRunning(name)
    }
  }

  /// Why `owner` cannot connect a background session `configuration` now, or nil when it can:
  /// an extension needs a shared container [A]; only one process connects to a session at a
  /// time [Q 76659]. The lint says what to change.
  func connectionProblem(_ configuration: SessionConfiguration, owner: SessionOwner) -> (
    SimURLError.Code, heldBy: SessionOwner?
  )? {
    guard configuration.kind == .background else { return nil }
    let identifier = configuration.identifier
    if owner != .app && configuration.sharedContainerIdentifier == nil {
      lint(
        .extensionSessionWithoutSharedContainer,
        "extension '\(owner.traceName)' made background session '\(identifier)' without "
          + "sharedContainerIdentifier, so it is invalidated at creation and its tasks fail with -995; "
          + "set it to an app group the extension shares with its containing app",
        [TraceField("session", .string(identifier))])
      return (.backgroundSessionRequiresSharedContainer, nil)
    }
    if let live = daemon.backgroundSessions[identifier]?.attached, !live.isInvalidated, live.owner != owner {
      lint(
        .sessionInUseByAnotherProcess,
        "\(owner == .app ? "the app" : "extension '\(owner.traceName)'") made background session "
          + "'\(identifier)' while \(live.owner == .app ? "the app" : "extension '\(live.owner.traceName)'") "
          + "holds it; only one process connects to a session at a time, so this one fails with -996: "
          + "give each process its own identifier, and make the extension's session in the app only when "
          + "handleEventsForBackgroundURLSession names it",
        [TraceField("session", .string(identifier))])
      return (.backgroundSessionInUseByAnotherProcess, live.owner)
    }
    return nil
  }
}
