import SimKernel
import Testing

@testable import TransferEngine

/// The task state machine alone, table-driven over (state, input) -> (state, output); no
/// `Simulation`.
@Suite("Task state machine")
struct TaskStateMachineTests {
  typealias Machine = TaskStateMachine
  static let t0 = SimTime(.seconds(5))
  static let t1 = SimTime(.seconds(9))
  /// Backoff 4 s, so a first interruption at `t0` retries at `t1`.
  static let retry = RetryPolicy(backoff: .seconds(4), maxBackoff: .seconds(20))

  /// The states a test can start from, each reached by real inputs from `created`.
  enum Start: String, CaseIterable, CustomStringConvertible {
    case created, waiting, waitingForNetwork, connecting, downloading, uploading, stalled, backingOff, paused
    case suspendedByApp, finished

    var description: String { rawValue }

    var machine: Machine {
      var m = Machine()
      if self == .created { return m }
      _ = m.resume()
      switch self {
      case .waiting: return m
      case .waitingForNetwork:
        _ = m.deferred(.connectivity)
        return m
      default: break
      }
      _ = m.admit(at: TaskStateMachineTests.t0)
      switch self {
      case .connecting: return m
      case .downloading: _ = m.connected(up: false)
      case .uploading: _ = m.connected(up: true)
      case .stalled:
        _ = m.connected(up: false)
        _ = m.stall(at: TaskStateMachineTests.t0)
      case .backingOff:
        _ = m.detached()
        _ = m.interrupted(at: TaskStateMachineTests.t0, retry: TaskStateMachineTests.retry)
      case .paused:
        _ = m.detached()
        _ = m.paused(at: TaskStateMachineTests.t0)
      case .suspendedByApp:
        _ = m.connected(up: false)
        _ = m.detached()
        _ = m.suspend(at: TaskStateMachineTests.t0)
      case .finished:
        _ = m.connected(up: false)
        _ = m.end(.finished)
      default: break
      }
      return m
    }
  }

  @Test(
    "resume: a created task goes to the daemon, a suspended one waits again, others ignore it",
    arguments: Start.allCases)
  func resume(_ start: Start) {
    var m = start.machine
    let before = m
    let effect = m.resume()
    let expected: Machine.ResumeAction =
      start == .created ? .start : start == .suspendedByApp ? .continue : .none
    #expect(effect == expected)
    #expect(m.state == (expected == .none ? before.state : .waiting(traced: nil)))
    #expect(m.suspendCount == 0 || start == .finished)
  }

  /// (start, action, state after): what `suspend()` does in each state. A created task only
  /// counts (its first `resume()` is then balanced); a suspended one counts once more.
  static let suspendTable: [(Start, Machine.SuspendAction, Machine.State?)] = [
    (.created, .count, .created),
    (.waiting, .stop, .suspended(since: t1)),
    (.waitingForNetwork, .stop, .suspended(since: t1)),
    (.connecting, .stop, .suspended(since: t1)),
    (.downloading, .stop, .suspended(since: t1)),
    (.uploading, .stop, .suspended(since: t1)),
    (.stalled, .stop, .suspended(since: t1)),
    (.backingOff, .stop, .suspended(since: t1)),
    (.paused, .stop, .suspended(since: t1)),
    (.suspendedByApp, .count, .suspended(since: t0)),
    (.finished, .ignore, nil),
  ]

  @Test(
    "suspend: a resumed task stops, its armed events go stale; nested calls only count",
    arguments: suspendTable)
  func suspend(_ start: Start, _ action: Machine.SuspendAction, _ after: Machine.State?) {
    var m = start.machine
    let before = m
    let stops = action == .stop
    #expect(m.suspendStops == stops)
    let got = m.suspend(at: Self.t1)
    #expect(got == action)
    #expect(m.state == (after ?? before.state))
    #expect(!m.isActive && !m.isWaiting || start == .finished)
    #expect(m.generation == (stops ? before.generation &+ 1 : before.generation))
    #expect(m.suspendCount == (start == .finished ? before.suspendCount : before.suspendCount + 1))
  }

  @Test("suspend and resume nest: two suspends need two resumes")
  func nested() {
    var m = Start.downloading.machine
    let s1 = m.suspend(at: Self.t0)
    let s2 = m.suspend(at: Self.t1)
    let r1 = m.resume()
    #expect(s1 == .stop && s2 == .count && r1 == .none)
    #expect(m.state == .suspended(since: Self.t0))
    let r2 = m.resume()
    let r3 = m.resume()
    #expect(r2 == .continue && r3 == .none)
    #expect(m.state == .waiting(traced: nil))
    // A created task suspended before its first resume needs one more.
    var c = Machine()
    let cs = c.suspend(at: Self.t0)
    let c1 = c.resume()
    #expect(cs == .count && c1 == .none && c.state == .created)
    let c2 = c.resume()
    #expect(c2 == .start)
  }

  @Test(
    "deferred: a wait reason is traced only when it changes",
    arguments: [
      (Start.waiting, SimURLSessionTask.WaitReason.connectivity, Machine.DeferAction.traceReason),
      (.waitingForNetwork, .connectivity, .alreadyTraced),
      (.waitingForNetwork, .connectionLimit, .traceReason),
    ])
  func deferred(_ start: Start, _ reason: SimURLSessionTask.WaitReason, _ action: Machine.DeferAction) {
    var m = start.machine
    let r12 = m.deferred(reason)
    #expect(r12 == action)
    #expect(m.state == .waiting(traced: reason))
  }

  @Test("admit: the first attempt starts, later ones are retries numbered from 2")
  func admit() {
    var m = Start.waiting.machine
    let r13 = m.admit(at: Self.t0)
    #expect(r13 == .start)
    #expect(m.state == .connecting && m.startedAt == Self.t0 && m.attempts == 1 && m.isActive)
    _ = m.detached()
    _ = m.interrupted(at: Self.t0, retry: Self.retry)
    let r14 = m.backoffEnded()
    #expect(r14 == .enqueue)
    let r15 = m.admit(at: Self.t1)
    #expect(r15 == .retry(attempt: 2))
    #expect(m.startedAt == Self.t0)
  }

  @Test(
    "connected, uploadBodySent: bytes flow up, then the response down",
    arguments: [(true, Machine.State.transferring(up: true)), (false, .transferring(up: false))])
  func connected(_ up: Bool, _ expected: Machine.State) {
    var m = Start.connecting.machine
    let joined = m.connected(up: up)
    #expect(joined == .joinLink(up: up))
    #expect(m.state == expected)
    #expect(m.direction?.up == up && m.direction?.stalled == false)
    if up {
      let sent = m.uploadBodySent()
      #expect(sent == .joinDownLink)
      #expect(m.state == .transferring(up: false))
    }
  }

  @Test(
    "stall and unstall: only a transferring task stalls, only a stalled one flows again",
    arguments: Start.allCases)
  func stall(_ start: Start) {
    var m = start.machine
    let transferring = start == .downloading || start == .uploading
    let up = start == .uploading
    let r16 = m.stall(at: Self.t1)
    #expect(r16 == (transferring ? .leaveLink(up: up) : .ignore))
    if transferring {
      #expect(m.direction?.stalled == true && m.isActive)
      let r17 = m.unstall()
      #expect(r17 == .rejoinLink(up: up))
      #expect(m.direction?.stalled == false)
    }
    var other = start.machine
    let r18 = other.unstall()
    #expect(r18 == (start == .stalled ? .rejoinLink(up: false) : .ignore))
  }

  @Test(
    "detached: the attempt's events go stale, a task on a link leaves it, the state waits for the next input",
    arguments: [
      (Start.connecting, Machine.DetachAction.notOnLink), (.downloading, .takeOffLink(up: false)),
      (.uploading, .takeOffLink(up: true)), (.stalled, .takeOffLink(up: false)),
    ])
  func detached(_ start: Start, _ action: Machine.DetachAction) {
    var m = start.machine
    let before = m
    let got = m.detached()
    #expect(got == action)
    #expect(m.generation == before.generation &+ 1)
    #expect(m.state == before.state)
  }

  @Test(
    "interrupted: an active task backs off until its retry",
    arguments: [Start.connecting, .downloading, .uploading, .stalled])
  func interrupted(_ start: Start) {
    var m = start.machine
    _ = m.detached()
    let action = m.interrupted(at: Self.t0, retry: Self.retry)
    #expect(action == .scheduleRetry(after: .seconds(4)))
    #expect(m.state == .backingOff(until: Self.t1))
    #expect(!m.isActive)
  }

  @Test(
    "backoffEnded: a backing-off task waits again, its next reason always traced", arguments: Start.allCases)
  func backoffEnded(_ start: Start) {
    var m = start.machine
    let before = m.state
    let r19 = m.backoffEnded()
    #expect(r19 == (start == .backingOff ? .enqueue : .ignore))
    #expect(m.state == (start == .backingOff ? .waiting(traced: .retryBackoff) : before))
  }

  @Test("paused and requeue: a default session's transfer stops with its app and queues again")
  func pausedAndRequeue() {
    var m = Start.downloading.machine
    _ = m.detached()
    let paused = m.paused(at: Self.t1)
    #expect(paused == .armIdleTimer)
    #expect(m.state == .paused(since: Self.t1))
    let requeued = m.requeue()
    #expect(requeued == .stopIdleTimerAndEnqueue)
    #expect(m.state == .waiting(traced: nil))
  }

  @Test(
    "end: every state but done ends once; a second end says so",
    arguments: Start.allCases)
  func end(_ start: Start) {
    var m = start.machine
    let generation = m.generation
    let r20 = m.end(.cancelled)
    #expect(r20 == (start == .finished ? .endedTwice : .ended))
    #expect(m.state == .done(.cancelled) && m.isDone)
    #expect(m.generation == generation &+ 1)
    let r21 = m.end(.failed)
    #expect(r21 == .endedTwice)
  }
}
