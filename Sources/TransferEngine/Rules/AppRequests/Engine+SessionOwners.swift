import SimKernel

/// What making a session or a task asks of the process that makes it (the app, or one of its
/// extensions), shared by those requests' rooms.
extension Engine {
  /// Whether the process `owner` is running now (it can make sessions and tasks).
  func isRunning(_ owner: SessionOwner) -> Bool {
    switch owner {
    case .app: return lifecycle.state.isRunning
    case .appExtension(let name): return extensions.isRunning(name)
    }
  }

  /// Why `owner` cannot connect a background session `configuration` now, or nil when it can:
  /// an extension needs a shared container [A]; only one process connects to a session at a
  /// time [Q 76659]. The lint that says what to change is appended to `effects`.
  func connectionProblem(
    _ configuration: SessionConfiguration, owner: SessionOwner, into effects: inout EffectBuffer
  ) -> (SimURLError.Code, heldBy: SessionOwner?)? {
    guard configuration.kind == .background else { return nil }
    let identifier = configuration.identifier
    if owner != .app && configuration.sharedContainerIdentifier == nil {
      effects.append(
        .lint(
          .extensionSessionWithoutSharedContainer,
          "extension '\(owner.traceName)' made background session '\(identifier)' without "
            + "sharedContainerIdentifier, so it is invalidated at creation and its tasks fail with -995; "
            + "set it to an app group the extension shares with its containing app",
          [TraceField("session", .string(identifier))]))
      return (.backgroundSessionRequiresSharedContainer, nil)
    }
    if let live = daemon.backgroundSession(identifier)?.attached, !live.isInvalidated, live.owner != owner {
      effects.append(
        .lint(
          .sessionInUseByAnotherProcess,
          "\(owner == .app ? "the app" : "extension '\(owner.traceName)'") made background session "
            + "'\(identifier)' while \(live.owner == .app ? "the app" : "extension '\(live.owner.traceName)'") "
            + "holds it; only one process connects to a session at a time, so this one fails with -996: "
            + "give each process its own identifier, and make the extension's session in the app only when "
            + "handleEventsForBackgroundURLSession names it",
          [TraceField("session", .string(identifier))]))
      return (.backgroundSessionInUseByAnotherProcess, live.owner)
    }
    return nil
  }
}
