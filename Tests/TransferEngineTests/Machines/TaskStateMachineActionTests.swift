import SimKernel
import Testing

@testable import TransferEngine

/// The actions the task machine hands the engine, as tables of (state, input) -> action: the
/// retry backoff it works out, and the retry on a new interface. No `Simulation`.
@Suite("Task state machine actions")
struct TaskStateMachineActionTests {
  typealias Machine = TaskStateMachine
  static let policy = RetryPolicy(backoff: .seconds(10), maxBackoff: .minutes(10))

  /// A task connecting for its `attempt`-th time, each earlier attempt interrupted.
  static func connecting(attempt: Int) -> Machine {
    var m = Machine()
    _ = m.resume()
    _ = m.admit(at: .zero)
    for _ in 1..<attempt {
      _ = m.detached()
      _ = m.interrupted(at: .zero, retry: policy)
      _ = m.backoffEnded()
      _ = m.admit(at: .zero)
    }
    return m
  }

  @Test(
    "interrupted: the backoff doubles at each attempt from the policy's first wait, up to its cap",
    arguments: [
      (1, SimDuration.seconds(10)), (2, .seconds(20)), (3, .seconds(40)), (6, .seconds(320)),
      (7, .minutes(10)), (40, .minutes(10)),
    ])
  func backoff(_ attempt: Int, _ wait: SimDuration) {
    var m = Self.connecting(attempt: attempt)
    #expect(m.attempts == attempt)
    let now = SimTime(.seconds(100))
    _ = m.detached()
    let action = m.interrupted(at: now, retry: Self.policy)
    #expect(action == .scheduleRetry(after: wait))
    #expect(m.state == .backingOff(until: now + wait))
  }

  @Test(
    "retryOnNewInterface: an active task queues again at once, ahead, with no backoff",
    arguments: [false, true])
  func retryOnNewInterface(_ up: Bool) {
    var m = Self.connecting(attempt: 1)
    _ = m.connected(up: up)
    let detach = m.detached()
    #expect(detach == .takeOffLink(up: up))
    let action = m.retryOnNewInterface()
    #expect(action == .requeueAhead)
    #expect(m.state == .waiting(traced: nil) && m.reclaimsSlot)
    _ = m.admit(at: .zero)
    #expect(!m.reclaimsSlot && m.attempts == 2)
  }

  @Test("requeue after a backoff keeps the backoff as the traced reason; the next deferral traces a new one")
  func requeueAfterBackoff() {
    var m = Self.connecting(attempt: 1)
    _ = m.detached()
    _ = m.interrupted(at: .zero, retry: Self.policy)
    let ended = m.backoffEnded()
    #expect(ended == .enqueue)
    let same = m.deferred(.retryBackoff)
    let other = m.deferred(.connectionLimit)
    #expect(same == .alreadyTraced && other == .traceReason)
  }
}
