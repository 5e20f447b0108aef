import SimKernel

/// The app's handle on a background-task assertion (`UIBackgroundTaskIdentifier`).
public struct BackgroundTaskIdentifier: Hashable, Sendable {
  /// The number the simulation gave the assertion; 0 is `invalid`.
  public let rawValue: Int
  /// What `beginBackgroundTask` returns when the app cannot have one (it is not running).
  public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}

extension AppContext {
  /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`: keeps the app running in
  /// the background until `endBackgroundTask`, for at most `backgroundTaskLimit` after it left
  /// the foreground. `expirationHandler` runs when that time is up; an assertion it does not end
  /// gets the app killed by the watchdog.
  public func beginBackgroundTask(name: String, expirationHandler: @escaping (AppContext) -> Void)
    -> BackgroundTaskIdentifier
  {
    simulation.beginBackgroundTask(name: name, expirationHandler: expirationHandler)
  }

  /// `UIApplication.endBackgroundTask(_:)`. Ending an identifier that is not open does nothing.
  public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    simulation.endBackgroundTask(identifier)
  }
}

/// Carrying out what `BackgroundAssertions` decides (behavior.md, "Background task assertions").
extension Simulation {
  /// The assertions open now, by name, in the order they were begun.
  public var openBackgroundTasks: [String] { assertions.open.map(\.name) }

  func beginBackgroundTask(name: String, expirationHandler: @escaping (AppContext) -> Void)
    -> BackgroundTaskIdentifier
  {
    guard lifecycle.state.isRunning else { return .invalid }
    let identifier = assertions.begin(name: name)
    assertionHandlers[identifier] = expirationHandler
    emit(.appBeginBackgroundTask, [TraceField("name", .string(name))])
    armBackgroundTimeExpiry()
    return BackgroundTaskIdentifier(rawValue: identifier)
  }

  func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    let outcome = assertions.end(identifier.rawValue)
    switch outcome {
    case .unknown: return
    case .ended(let assertion):
      assertionHandlers[assertion.identifier] = nil
      emit(.appEndBackgroundTask, [TraceField("name", .string(assertion.name))])
    case .endedSuspendNow(let assertion):
      assertionHandlers[assertion.identifier] = nil
      emit(.appEndBackgroundTask, [TraceField("name", .string(assertion.name))])
      systemSuspend()
    }
  }

  /// The app entered the background (user or wake): its assertions' time starts now.
  func startBackgroundTime() {
    assertions.enteredBackground(at: now, limit: policy.backgroundTaskLimit)
    armBackgroundTimeExpiry()
  }

  func armBackgroundTimeExpiry() {
    guard lifecycle.state == .background, let (at, generation) = assertions.expiryToArm(now: now) else {
      return
    }
    scheduler.schedule(.backgroundTimeExpired(generation: generation), at: at)
  }

  /// The time is up: every open assertion's expiration handler runs; one still open after them
  /// gets the app killed by the watchdog [Q].
  func backgroundTimeExpired(generation: UInt32) {
    guard lifecycle.state == .background, let expiring = assertions.expired(generation: generation) else {
      return
    }
    // A main thread still in a slow callback cannot run the expiration handlers.
    if watchdogKillsBusyApp(had: policy.backgroundTaskLimit) { return }
    for assertion in expiring {
      emit(.appBackgroundTaskExpired, [TraceField("name", .string(assertion.name))])
      if let handler = assertionHandlers[assertion.identifier] { handler(AppContext(simulation: self)) }
      guard lifecycle.state == .background else { return }
    }
    let stillOpen = assertions.open.filter { assertion in expiring.contains(assertion) }
    guard let first = stillOpen.first else { return }
    lint(
      .backgroundTaskNotEnded,
      "background task '\(first.name)' was still open when the app's \(policy.backgroundTaskLimit) of background time ran out, "
        + "so the watchdog killed the app; call endBackgroundTask in its expiration handler")
    terminate(reason: "watchdog")
  }

  /// The process ended: assertions and their handlers go with it.
  func dropBackgroundTasks() {
    assertions.processEnded()
    assertionHandlers = [:]
  }

  /// A wake's time is up (the completion-handler timeout, or the assertions' time): if the app is
  /// still in a callback, it cannot answer the system, and the watchdog kills it [A][S]. True
  /// when it did.
  func watchdogKillsBusyApp(had: SimDuration) -> Bool {
    guard lifecycle.state == .background, let stretch = appBusy.busy(at: now) else { return false }
    let found = stretch.watchdogLint(had: had, now: now)
    lint(.slowCallback, found.message, found.fields)
    terminate(reason: "watchdog")
    return true
  }
}
