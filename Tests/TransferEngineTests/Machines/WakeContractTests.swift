import SimKernel
import Testing

@testable import TransferEngine

/// The wake contract alone: each input, no `Simulation`.
@Suite("Wake contract")
struct WakeContractTests {
  @Test("requestCheck: one check scheduled at a time, until it runs")
  func requestCheck() {
    var w = WakeContract()
    let r1 = w.requestCheck()
    #expect(r1)
    let r2 = w.requestCheck()
    #expect(!r2)
    w.checkRan()
    let r3 = w.requestCheck()
    #expect(r3)
  }

  @Test("begin numbers wakes from 1; enteredForeground closes one without a verdict")
  func begin() {
    var w = WakeContract()
    let r4 = w.begin(sessions: ["A"])
    #expect(r4 == 1)
    #expect(w.currentWake == 1)
    w.enteredForeground()
    #expect(w.currentWake == nil)
    let ended = w.end()
    #expect(ended == nil)
    let r5 = w.begin(sessions: ["A"])
    #expect(r5 == 2)
  }

  @Test("eventsDelivered: didFinishEvents is due once per session of the wake")
  func eventsDelivered() {
    var w = WakeContract()
    let r6 = w.eventsDelivered("A")
    #expect(!r6)
    _ = w.begin(sessions: ["A"])
    let r7 = w.eventsDelivered("B")
    #expect(!r7)
    let r8 = w.eventsDelivered("A")
    #expect(r8)
    let r9 = w.eventsDelivered("A")
    #expect(!r9)
  }

  /// Two sessions whose identifiers differ only in their Unicode form are two sessions of the
  /// wake: each owes its own didFinishEvents and its own handler.
  @Test("sessions of a wake are told apart by their identifiers' bytes")
  func sessionsByBytes() {
    let composed = "\u{E9}"
    let decomposed = "e\u{301}"
    var w = WakeContract()
    let number = w.begin(sessions: [composed, decomposed])
    let delivered = (w.eventsDelivered(composed), w.eventsDelivered(decomposed))
    #expect(delivered == (true, true))
    let first = w.handlerCalled(session: composed, wake: number, appInBackground: true)
    #expect(first == .waiting)
    // Compared by bytes: `==` on `[String]` would take either identifier for the other.
    let uncalled = w.timedOut(wake: number, appInBackground: true) ?? []
    #expect(uncalled.count == 1 && uncalled[0].hasSameUTF8(decomposed))
    let second = w.handlerCalled(session: decomposed, wake: number, appInBackground: true)
    #expect(second == .allCalled)
  }

  /// (sessions, delivered before the call, caller session, wake number, in background, outcome).
  static let handlerCases: [([String], [String], String, Int, Bool, WakeContract.HandlerOutcome)] = [
    (["A"], ["A"], "A", 1, true, .allCalled),
    (["A", "B"], ["A"], "A", 1, true, .waiting),
    (["A"], [], "A", 1, true, .calledEarly),
    (["A"], ["A"], "A", 7, true, .ignored),
    (["A"], ["A"], "A", 1, false, .ignored),
  ]

  @Test("handlerCalled: all called, waiting, early, stale", arguments: handlerCases.indices)
  func handlerCalled(_ index: Int) {
    let (sessions, delivered, caller, number, background, expected) = Self.handlerCases[index]
    var w = WakeContract()
    _ = w.begin(sessions: sessions)
    for s in delivered { _ = w.eventsDelivered(s) }
    let r10 = w.handlerCalled(session: caller, wake: number, appInBackground: background)
    #expect(r10 == expected)
  }

  @Test(
    "handlerCalled: a handler called twice, or one of a session outside the wake, is not another session's")
  func handlerCountsEachSessionOnce() {
    var w = WakeContract()
    _ = w.begin(sessions: ["A", "B", "C"])
    for s in ["A", "B", "C", "D"] { _ = w.eventsDelivered(s) }
    let calls = ["A", "A", "D", "B"].map { w.handlerCalled(session: $0, wake: 1, appInBackground: true) }
    #expect(calls == [.waiting, .waiting, .calledEarly, .waiting])
    #expect(w.handlerCalled(session: "C", wake: 1, appInBackground: true) == .allCalled)
  }

  @Test("deliveryHeld: a handler called early holds the rest of its session's events")
  func deliveryHeld() {
    var w = WakeContract()
    _ = w.begin(sessions: ["A"])
    #expect(!w.deliveryHeld("A"))
    let r11 = w.handlerCalled(session: "A", wake: 1, appInBackground: true)
    #expect(r11 == .calledEarly)
    #expect(w.deliveryHeld("A"))
    #expect(!w.deliveryHeld("B"))
  }

  @Test("timedOut: the sessions whose handler never came back; nil when stale")
  func timedOut() {
    var w = WakeContract()
    #expect(w.timedOut(wake: 1, appInBackground: true) == nil)
    _ = w.begin(sessions: ["A", "B"])
    _ = w.eventsDelivered("A")
    _ = w.handlerCalled(session: "A", wake: 1, appInBackground: true)
    #expect(w.timedOut(wake: 1, appInBackground: true) == ["B"])
    #expect(w.timedOut(wake: 2, appInBackground: true) == nil)
    #expect(w.timedOut(wake: 1, appInBackground: false) == nil)
  }

  @Test("end: the third consecutive one-task wake reports the streak, once")
  func oneTaskStreak() {
    var w = WakeContract()
    var streaks: [Int?] = []
    for _ in 1...5 {
      _ = w.begin(sessions: ["A"])
      w.taskCreated()
      streaks.append(w.end()?.oneTaskPerWakeStreak)
    }
    #expect(streaks == [nil, nil, 3, nil, nil])
  }

  @Test("end: a wake with two tasks breaks the streak")
  func streakBroken() {
    var w = WakeContract()
    for tasks in [1, 1, 2, 1, 1] {
      _ = w.begin(sessions: ["A"])
      for _ in 0..<tasks { w.taskCreated() }
      let ending = w.end()
      #expect(ending?.oneTaskPerWakeStreak == nil)
    }
    let ended = w.end()
    #expect(ended == nil)
  }
}
