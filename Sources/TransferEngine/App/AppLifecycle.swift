/// The app's process as iOS sees it.
public enum AppState: String, Sendable, CaseIterable {
  /// No process (never launched, terminated by the system, or force-quit by the user).
  case notRunning
  /// On screen.
  case foreground
  /// Running off screen, for a limited time.
  case background
  /// In memory, not running.
  case suspended

  /// True when the app's code can run (delegate calls are allowed).
  public var isRunning: Bool { self == .foreground || self == .background }
}

/// The app lifecycle as a state machine: inputs are user and system actions, outputs are the
/// trace kinds to record. Impossible inputs are no-ops that say so (nil), never crashes: a
/// scenario may well background an app that is already in the background.
struct AppLifecycle {
  private(set) var state: AppState = .notRunning
  /// Set by a force quit; cleared by the next user launch. While set, no background launch.
  private(set) var forceQuit = false
  /// Bumped at every transition so timers armed for an earlier state (suspend after
  /// `backgroundRunTime`, completion-handler timeout) recognise they are stale.
  private(set) var generation: UInt32 = 0

  /// What a user `launch` does.
  enum LaunchOutcome { case launched, broughtToForeground, alreadyForeground }

  mutating func userLaunch() -> LaunchOutcome {
    switch state {
    case .foreground: return .alreadyForeground
    case .notRunning:
      enter(.foreground)
      forceQuit = false
      return .launched
    case .background, .suspended:
      enter(.foreground)
      return .broughtToForeground
    }
  }

  /// The user leaves the app; false when it was not in the foreground.
  mutating func userBackground() -> Bool {
    guard state == .foreground else { return false }
    enter(.background)
    return true
  }

  /// The system suspends a background app; false when it was not running in the background.
  mutating func suspend() -> Bool {
    guard state == .background else { return false }
    enter(.suspended)
    return true
  }

  /// The system terminates the app (or the user force-quits it); false when not running.
  mutating func terminate(byUser: Bool) -> Bool {
    guard state != .notRunning || (byUser && !forceQuit) else { return false }
    let wasRunning = state != .notRunning
    enter(.notRunning)
    if byUser { forceQuit = true }
    return wasRunning || byUser
  }

  /// The system wakes the app in the background for its sessions.
  enum WakeOutcome { case resumed, relaunched }

  mutating func wake() -> WakeOutcome? {
    switch state {
    case .suspended:
      enter(.background)
      return .resumed
    case .notRunning where !forceQuit:
      enter(.background)
      return .relaunched
    default: return nil
    }
  }

  private mutating func enter(_ next: AppState) {
    state = next
    generation &+= 1
  }
}
