import SimKernel

/// The entries of the user's and the app's requests, and of the system events that belong to
/// them: each runs its room (`Rules/UserActions/`, `Rules/AppRequests/`, `Rules/System/`) on the
/// engine and interprets what it appended. Nothing here decides.
extension Simulation {
  /// The user opens the app's extension `name` (a share sheet, say): its process starts. The
  /// extension makes sessions with `makeSession(inExtension:configuration:delegate:)`.
  public func openExtension(_ name: String) {
    run { OpenExtensionRule.apply(name, engine: engine, into: &$0) }
  }

  /// The user leaves the extension: the system ends its process `extensionEndsAfter` later.
  public func closeExtension(_ name: String) {
    run { CloseExtensionRule.apply(name, engine: engine, into: &$0) }
  }

  /// Whether the extension `name` is running now.
  public func extensionIsRunning(_ name: String) -> Bool { extensions.isRunning(name) }

  /// The system ends the extension's run `run` (`Rules/System/ExtensionEndRule.swift`).
  func endExtension(run: Int) {
    self.run { ExtensionEndRule.apply(run: run, engine: engine, into: &$0) }
  }

  /// `URLSession(configuration:delegate:delegateQueue:)` called in the extension `name`, which
  /// must be running. Only background sessions are modelled in an extension.
  public func makeSession(
    inExtension name: String, configuration: SessionConfiguration, delegate: SimURLSessionDelegate?
  ) throws(SimAPIMisuse) -> SimURLSession {
    try makeSession(configuration, delegate: delegate, owner: .appExtension(name))
  }

  /// The assertions open now, by name, in the order they were begun.
  public var openBackgroundTasks: [String] { assertions.open.map(\.name) }

  /// `beginBackgroundTask` (`Rules/AppRequests/BeginBackgroundTaskRule.swift`); the expiration
  /// handler is kept with the app's closures.
  func beginBackgroundTask(name: String, expirationHandler: @escaping (AppContext) -> Void)
    -> BackgroundTaskIdentifier
  {
    run { effects in
      guard let identifier = BeginBackgroundTaskRule.apply(name: name, engine: engine, into: &effects) else {
        return .invalid
      }
      assertionHandlers[identifier] = expirationHandler
      return BackgroundTaskIdentifier(rawValue: identifier)
    }
  }

  /// `endBackgroundTask` (`Rules/AppRequests/EndBackgroundTaskRule.swift`).
  func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
    run { effects in
      if let ended = EndBackgroundTaskRule.apply(identifier.rawValue, engine: engine, into: &effects) {
        assertionHandlers[ended] = nil
      }
    }
  }

  /// The assertions' time is up (`Rules/System/BackgroundTimeExpiredRule.swift`).
  func backgroundTimeExpired(generation: UInt32) {
    run { BackgroundTimeExpiredRule.apply(generation: generation, engine: engine, into: &$0) }
  }
}
