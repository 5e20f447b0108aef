import SimKernel

/// `beginBackgroundTask`/`endBackgroundTask` (behavior.md, "Background task assertions"): the
/// app's open "don't suspend me" assertions and the background time they may use.
///
/// A value owned by `Simulation`; each input returns what the engine must do. The time budget
/// starts when the app enters the background (the user leaves it, or the system wakes it) and
/// is shared by every assertion, as `backgroundTimeRemaining` is on a device. The facade arms
/// one expiry event per background stretch, and only while an assertion is open, so runs
/// without assertions schedule nothing new.
struct BackgroundAssertions {
  /// One open assertion.
  struct Assertion: Equatable {
    let identifier: Int
    let name: String
  }

  /// The open assertions, oldest first. Built on each read: the rules ask `hasOpen`, `isOpen`,
  /// and read the list only when background time runs out.
  var open: [Assertion] {
    order.compactMap { identifier in names[identifier].map { Assertion(identifier: identifier, name: $0) } }
  }
  /// Whether any assertion is open.
  var hasOpen: Bool { !names.isEmpty }
  /// Whether the assertion `identifier` is still open.
  func isOpen(_ identifier: Int) -> Bool { names[identifier] != nil }

  /// The names of the open assertions, by identifier: an end is found at once, not by a scan
  /// (thousands open, ended one by one, cost the square of their number).
  private var names: [Int: String] = [:]
  /// Identifiers in the order they were begun; ended ones leave lazily, when they outnumber the
  /// open ones.
  private var order: [Int] = []
  private var nextIdentifier = 1
  /// When this background stretch's assertion time runs out; nil while not in the background.
  private(set) var budgetEnd: SimTime?
  /// The system wanted to suspend the app while an assertion was open: suspend when the last ends.
  private(set) var suspensionDeferred = false
  /// Bumped when the budget changes or runs out, so an armed expiry event can tell it is stale.
  private(set) var generation: UInt32 = 0
  /// An expiry event of this generation is scheduled.
  private var armed = false

  /// The app begins an assertion; returns its identifier.
  mutating func begin(name: String) -> Int {
    let identifier = nextIdentifier
    nextIdentifier += 1
    names[identifier] = name
    order.append(identifier)
    return identifier
  }

  /// What ending an assertion means.
  enum EndOutcome: Equatable {
    /// No open assertion has that identifier (already ended, or never begun): nothing happens.
    case unknown
    /// Ended; others stay open, or no suspension is waiting.
    case ended(Assertion)
    /// Ended the last one while the system was waiting to suspend the app: suspend now.
    case endedSuspendNow(Assertion)
  }

  mutating func end(_ identifier: Int) -> EndOutcome {
    guard let name = names.removeValue(forKey: identifier) else { return .unknown }
    let assertion = Assertion(identifier: identifier, name: name)
    if order.count > 2 * names.count + 16 { order.removeAll { names[$0] == nil } }
    if names.isEmpty && suspensionDeferred {
      suspensionDeferred = false
      return .endedSuspendNow(assertion)
    }
    return .ended(assertion)
  }

  /// The app entered the background at `now`: its assertions may keep it running for `limit`.
  mutating func enteredBackground(at now: SimTime, limit: SimDuration) {
    budgetEnd = now + limit
    suspensionDeferred = false
    generation &+= 1
    armed = false
  }

  /// The app came to the foreground: no budget runs; open assertions stay open.
  mutating func enteredForeground() {
    budgetEnd = nil
    suspensionDeferred = false
    generation &+= 1
    armed = false
  }

  /// When an expiry event must be armed now (an assertion is open in the background and none
  /// is armed), its time and generation; the caller schedules it.
  mutating func expiryToArm(now: SimTime) -> (at: SimTime, generation: UInt32)? {
    guard !armed, hasOpen, let end = budgetEnd else { return nil }
    armed = true
    return (max(end, now), generation)
  }

  /// The system wants to suspend the app: true when it may, false when an assertion holds it
  /// (the suspension then waits for the last `end` or the expiry).
  mutating func maySuspend() -> Bool {
    if !hasOpen { return true }
    suspensionDeferred = true
    return false
  }

  /// The budget of generation `armed` ran out: the assertions that expire now (their expiration
  /// handlers run), or nil when the event is stale. The budget stays spent: an assertion begun
  /// later in the same background stretch expires at once.
  mutating func expired(generation event: UInt32) -> [Assertion]? {
    guard event == generation, armed else { return nil }
    armed = false
    return open
  }

  /// The process ended: its assertions die with it.
  mutating func processEnded() {
    names = [:]
    order = []
    budgetEnd = nil
    suspensionDeferred = false
    generation &+= 1
    armed = false
  }
}
