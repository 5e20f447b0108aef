import SimKernel

/// The invariant checker's own bookkeeping, beside the engine rather than inside its records:
/// per-task counts of endings and deliveries, and the time of the last event.
///
/// The engine tells it what happened (`taskEnded`, `delivered...`); the checks in
/// `Simulation+Invariants.swift` read it together with a snapshot of the engine after each event.
struct InvariantChecker {
  /// Per task uid: times it ended (must end at 1).
  private var endings: [Int] = []
  /// Per task uid: ended by finishing (the whole response arrived).
  private var finishedOK: [Bool] = []
  /// Per task uid: `didComplete` and `didFinishDownloading` calls the app received.
  private var completions: [Int] = []
  private var downloads: [Int] = []
  /// The time of the last event checked.
  private(set) var lastEventTime = SimTime.zero

  private mutating func grow(to uid: Int32) {
    let count = Int(uid) + 1
    guard endings.count < count else { return }
    let more = count - endings.count
    endings += repeatElement(0, count: more)
    finishedOK += repeatElement(false, count: more)
    completions += repeatElement(0, count: more)
    downloads += repeatElement(0, count: more)
  }

  mutating func taskEnded(_ uid: Int32) {
    grow(to: uid)
    endings[Int(uid)] += 1
  }

  mutating func taskFinished(_ uid: Int32) {
    grow(to: uid)
    finishedOK[Int(uid)] = true
  }

  mutating func deliveredCompletion(_ uid: Int32) {
    grow(to: uid)
    completions[Int(uid)] += 1
  }

  mutating func deliveredDownload(_ uid: Int32) {
    grow(to: uid)
    downloads[Int(uid)] += 1
  }

  func endings(_ uid: Int32) -> Int { Int(uid) < endings.count ? endings[Int(uid)] : 0 }
  func finished(_ uid: Int32) -> Bool { Int(uid) < finishedOK.count && finishedOK[Int(uid)] }
  func completionsDelivered(_ uid: Int32) -> Int { Int(uid) < completions.count ? completions[Int(uid)] : 0 }
  func downloadsDelivered(_ uid: Int32) -> Int { Int(uid) < downloads.count ? downloads[Int(uid)] : 0 }

  /// An event was handled at `now`; returns the time of the previous one.
  mutating func eventHandled(at now: SimTime) -> SimTime {
    defer { lastEventTime = now }
    return lastEventTime
  }
}
