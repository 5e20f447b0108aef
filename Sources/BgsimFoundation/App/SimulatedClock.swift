import Dispatch
import Foundation
import SimKernel

/// Simulated time as a Swift `Clock`, for code that takes a clock or a scheduler (a debouncer, a
/// retry loop, code written with swift-clocks): `sleep(until:)` returns when simulated time
/// reaches the deadline, however fast the simulation runs. `SimulatedApplication.clock`.
///
/// Why the simulation can wait for it: a sleep is registered when app code starts it while the
/// bridge waits for app code (a delegate call, a launch, a timer, a user action, and the `Task`s
/// they start, whose sleeps count as work), and at the deadline the bridge resumes the sleeping
/// task, waits until it runs again, then waits for the queues as after any timer. A sleep of a
/// process that ends throws `CancellationError` (on a device the task would be gone).
public struct SimulatedClock: Clock, Sendable {
  /// A point in simulated time, counted from the simulation's start.
  public struct Instant: InstantProtocol, Sendable {
    /// Simulated time since the simulation started.
    public var sinceStart: Duration
    /// The instant `sinceStart` after the simulation's start.
    public init(sinceStart: Duration) { self.sinceStart = sinceStart }
    /// The instant `duration` later.
    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant { Instant(sinceStart: sinceStart + duration) }
    /// The simulated time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.sinceStart - sinceStart }
    /// Whether `a` comes before `b`.
    public static func < (a: Instant, b: Instant) -> Bool { a.sinceStart < b.sinceStart }
  }

  let application: SimulatedApplication

  /// The simulation's current time.
  public var now: Instant { Instant(sinceStart: .nanoseconds(application.simulatedTime.nanoseconds)) }

  init(application: SimulatedApplication) {
    self.application = application
    application.process?.host?.noteClockUse()
  }
  /// The engine counts nanoseconds.
  public var minimumResolution: Duration { .nanoseconds(1) }

  #if compiler(>=6.2)
    /// Returns when simulated time reaches `deadline`. Runs on the caller's actor, so a sleep
    /// called on `SimulatedClock` itself (not through `any Clock`) is registered, and its caller
    /// resumed, without a hop to Swift's global pool that the simulation could not wait for.
    /// (Compilers before Swift 6.2 lack `nonisolated(nonsending)`: there the sleep hops.)
    public nonisolated(nonsending) func sleep(until deadline: Instant, tolerance: Duration? = nil)
      async throws
    {
      try await application.sleep(until: SimTime(nanoseconds: Self.nanoseconds(deadline.sinceStart)))
    }

    /// `Clock.sleep(for:)`, on the caller's actor (see `sleep(until:tolerance:)`).
    public nonisolated(nonsending) func sleep(for duration: Duration, tolerance: Duration? = nil)
      async throws
    {
      try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
    }
  #else
    /// Returns when simulated time reaches `deadline`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
      try await application.sleep(until: SimTime(nanoseconds: Self.nanoseconds(deadline.sinceStart)))
    }
  #endif

  /// `duration` in whole nanoseconds, held within what `SimTime` counts (no trap at the edges).
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let limit = Int64.max / 1_000_000_000 - 1
    guard seconds < limit else { return Int64.max - 1 }
    guard seconds > -limit else { return 0 }
    return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}

/// One `SimulatedClock.sleep`: the suspended task, its deadline, and the hand-off that tells the
/// simulation the task runs again.
final class Sleeper: @unchecked Sendable {
  let deadline: SimTime
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Error>?
  private var ended = false
  private let running = DispatchSemaphore(value: 0)
  /// How long the simulation waits for a woken task to be given a thread: the cooperative pool
  /// may be busy with other tests' simulations (Swift Testing runs tests on it in parallel).
  static let runTimeout: DispatchTimeInterval = .seconds(5)

  init(deadline: SimTime) { self.deadline = deadline }

  /// Keeps the continuation; false when the sleep was cancelled first (it must end at once).
  func attach(_ continuation: CheckedContinuation<Void, Error>) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !ended else { return false }
    self.continuation = continuation
    return true
  }

  private func take() -> CheckedContinuation<Void, Error>? {
    lock.lock()
    defer { lock.unlock() }
    ended = true
    let taken = continuation
    continuation = nil
    return taken
  }

  /// The deadline came: resumes the task and waits until it runs again. On the main thread the
  /// main run loop keeps turning meanwhile: the task may resume on the main actor.
  func wake() {
    guard let continuation = take() else { return }
    continuation.resume()
    let deadline = DispatchTime.now() + Sleeper.runTimeout
    guard MainThread.isCurrent else { return _ = running.wait(timeout: deadline) }
    while running.wait(timeout: .now()) != .success && DispatchTime.now() < deadline {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
    }
  }

  /// The task was cancelled, or its process ended.
  func cancel() { take()?.resume(throwing: CancellationError()) }

  /// Called by the woken task itself.
  func taskRuns() { running.signal() }
}

extension SimulatedApplication {
  /// Simulated time now (zero once the simulation is gone).
  var simulatedTime: SimTime { host?.simulation?.now ?? .zero }

  /// What both builds of `sleep(until:)` do once the caller is suspended: hand the sleeper its
  /// continuation and register it with the live process, or end it at once when it was cancelled
  /// or the process is gone. Synchronous, so it runs where the caller's sleep runs.
  private func start(_ sleeper: Sleeper, _ continuation: CheckedContinuation<Void, Error>) {
    guard sleeper.attach(continuation) else { return continuation.resume(throwing: CancellationError()) }
    guard let process else { return sleeper.cancel() }
    process.register(sleeper)
  }

  #if compiler(>=6.2)
    nonisolated(nonsending) func sleep(until deadline: SimTime) async throws {
      try Task.checkCancellation()
      let sleeper = Sleeper(deadline: deadline)
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { start(sleeper, $0) }
      } onCancel: {
        sleeper.cancel()
      }
      sleeper.taskRuns()
    }
  #else
    func sleep(until deadline: SimTime) async throws {
      try Task.checkCancellation()
      let sleeper = Sleeper(deadline: deadline)
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { start(sleeper, $0) }
      } onCancel: {
        sleeper.cancel()
      }
      sleeper.taskRuns()
    }
  #endif

}
