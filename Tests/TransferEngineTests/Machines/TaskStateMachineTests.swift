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
      case .downloading: m.connected(up: false)
      case .uploading: m.connected(up: true)
      case .stalled:
        m.connected(up: false)
        _ = m.stall(at: TaskStateMachineTests.t0)
      case .backingOff:
        m.detached()
        m.interrupted(retryAt: TaskStateMachineTests.t1)
      case .paused:
        m.detached()
        m.paused(at: TaskStateMachineTests.t0)
      case .suspendedByApp:
        m.connected(up: false)
        m.detached()
        _ = m.suspend(at: TaskStateMachineTests.t0)
      case .finished:
        m.connected(up: false)
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
    let expected: Machine.ResumeEffect =
      start == .created ? .start : start == .suspendedByApp ? .continue : .none
    #expect(effect == expected)
    #expect(m.state == (expected == .none ? before.state : .waiting(traced: nil)))
    #expect(m.suspendCount == 0 || start == .finished)
  }

  /// (start, stops, state after): what `suspend()` does in each state. A created task only
  /// counts (its first `resume()` is then balanced); a suspended one counts once more.
  static let suspendTable: [(Start, Bool, Machine.State?)] = [
    (.created, false, .created),
    (.waiting, true, .suspended(since: t1)),
    (.waitingForNetwork, true, .suspended(since: t1)),
    (.connecting, true, .suspended(since: t1)),
    (.downloading, true, .suspended(since: t1)),
    (.uploading, true, .suspended(since: t1)),
    (.stalled, true, .suspended(since: t1)),
    (.backingOff, true, .suspended(since: t1)),
    (.paused, true, .suspended(since: t1)),
    (.suspendedByApp, false, .suspended(since: t0)),
    (.finished, false, nil),
  ]

  @Test(
    "suspend: a resumed task stops, its armed events go stale; nested calls only count",
    arguments: suspendTable)
  func suspend(_ start: Start, _ stops: Bool, _ after: Machine.State?) {
    var m = start.machine
    let before = m
    #expect(m.suspendStops == stops)
    let stopped = m.suspend(at: Self.t1)
    #expect(stopped == stops)
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
    #expect(s1 && !s2 && r1 == .none)
    #expect(m.state == .suspended(since: Self.t0))
    let r2 = m.resume()
    let r3 = m.resume()
    #expect(r2 == .continue && r3 == .none)
    #expect(m.state == .waiting(traced: nil))
    // A created task suspended before its first resume needs one more.
    var c = Machine()
    let cs = c.suspend(at: Self.t0)
    let c1 = c.resume()
    #expect(!cs && c1 == .none && c.state == .created)
    let c2 = c.resume()
    #expect(c2 == .start)
  }

  @Test(
    "deferred: a wait reason is traced only when it changes",
    arguments: [
      (Start.waiting, SimURLSessionTask.WaitReason.connectivity, true),
      (.waitingForNetwork, .connectivity, false),
      (.waitingForNetwork, .connectionLimit, true),
    ])
  func deferred(_ start: Start, _ reason: SimURLSessionTask.WaitReason, _ traced: Bool) {
    var m = start.machine
    let r12 = m.deferred(reason)
    #expect(r12 == traced)
    #expect(m.state == .waiting(traced: reason))
  }

  @Test("admit: the first attempt starts, later ones are retries numbered from 2")
  func admit() {
    var m = Start.waiting.machine
    let r13 = m.admit(at: Self.t0)
    #expect(r13 == .start)
    #expect(m.state == .connecting && m.startedAt == Self.t0 && m.attempts == 1 && m.isActive)
    m.detached()
    m.interrupted(retryAt: Self.t1)
    let r14 = m.backoffEnded()
    #expect(r14)
    let r15 = m.admit(at: Self.t1)
    #expect(r15 == .retry(attempt: 2))
    #expect(m.startedAt == Self.t0)
  }

  @Test(
    "connected, uploadBodySent: bytes flow up, then the response down",
    arguments: [(true, Machine.State.transferring(up: true)), (false, .transferring(up: false))])
  func connected(_ up: Bool, _ expected: Machine.State) {
    var m = Start.connecting.machine
    m.connected(up: up)
    #expect(m.state == expected)
    #expect(m.direction?.up == up && m.direction?.stalled == false)
    if up {
      m.uploadBodySent()
      #expect(m.state == .transferring(up: false))
    }
  }

  @Test(
    "stall and unstall: only a transferring task stalls, only a stalled one flows again",
    arguments: Start.allCases)
  func stall(_ start: Start) {
    var m = start.machine
    let transferring = start == .downloading || start == .uploading
    let r16 = m.stall(at: Self.t1)
    #expect(r16 == transferring)
    if transferring {
      #expect(m.direction?.stalled == true && m.isActive)
      let r17 = m.unstall()
      #expect(r17)
      #expect(m.direction?.stalled == false)
    }
    var other = start.machine
    let r18 = other.unstall()
    #expect(r18 == (start == .stalled))
  }

  @Test("detached: the attempt's events go stale, the state waits for the next input")
  func detached() {
    var m = Start.downloading.machine
    let generation = m.generation
    m.detached()
    #expect(m.generation == generation &+ 1)
    #expect(m.state == .transferring(up: false))
  }

  @Test(
    "interrupted: an active task backs off until its retry",
    arguments: [Start.connecting, .downloading, .uploading, .stalled])
  func interrupted(_ start: Start) {
    var m = start.machine
    m.detached()
    m.interrupted(retryAt: Self.t1)
    #expect(m.state == .backingOff(until: Self.t1))
    #expect(!m.isActive)
  }

  @Test(
    "backoffEnded: a backing-off task waits again, its next reason always traced", arguments: Start.allCases)
  func backoffEnded(_ start: Start) {
    var m = start.machine
    let before = m.state
    let r19 = m.backoffEnded()
    #expect(r19 == (start == .backingOff))
    #expect(m.state == (start == .backingOff ? .waiting(traced: .retryBackoff) : before))
  }

  @Test("paused and requeue: a default session's transfer stops with its app and queues again")
  func pausedAndRequeue() {
    var m = Start.downloading.machine
    m.detached()
    m.paused(at: Self.t1)
    #expect(m.state == .paused(since: Self.t1))
    m.requeue()
    #expect(m.state == .waiting(traced: nil))
  }

  @Test(
    "end: every state but done ends once; a second end says so",
    arguments: Start.allCases)
  func end(_ start: Start) {
    var m = start.machine
    let generation = m.generation
    let r20 = m.end(.cancelled)
    #expect(r20 == (start != .finished))
    #expect(m.state == .done(.cancelled) && m.isDone)
    #expect(m.generation == generation &+ 1)
    let r21 = m.end(.failed)
    #expect(!r21)
  }
}
