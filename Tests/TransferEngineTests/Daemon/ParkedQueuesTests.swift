import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// A full admission pass visits only the queues whose pass may do something (`ParkedQueues`),
/// and a wake check and a suspension only the session records that may hold work
/// (`SessionWorkIndex`): with thousands of sessions woken apart, each used to cost N per wake.
@Suite("Daemon: parked queues and the records with work")
struct ParkedQueuesTests {
  // MARK: The containers against plain ones

  @Test("KeySet agrees with a Set on membership and on the next member in a range")
  func keySet() {
    var generator = SeededGenerator(seed: 7)
    var set = KeySet()
    var plain = Set<Int>()
    for _ in 0..<4_000 {
      let i = Int.random(in: 0..<300, using: &generator)
      if Bool.random(using: &generator) {
        set.insert(i)
        plain.insert(i)
      } else {
        set.remove(i)
        plain.remove(i)
      }
      let from = Int.random(in: 0..<320, using: &generator)
      let end = Int.random(in: 0..<320, using: &generator)
      #expect(set.first(from: from, below: end) == plain.filter { $0 >= from && $0 < end }.min())
      #expect(set.contains(i) == plain.contains(i))
    }
    var members: [Int] = []
    set.forEach { members.append($0) }
    #expect(members == plain.sorted())
  }

  @Test("EarliestEnds finds the first key in a range whose instant is before a threshold, as a scan does")
  func earliestEnds() {
    var generator = SeededGenerator(seed: 11)
    var ends = EarliestEnds()
    var plain: [SimTime] = []
    for _ in 0..<3_000 {
      // Grows past its first 64 leaves, and again.
      if plain.count < 200 && Int.random(in: 0..<10, using: &generator) == 0 {
        plain.append(.distantFuture)
        ends.grow(to: plain.count)
      }
      guard !plain.isEmpty else { continue }
      let i = Int.random(in: 0..<plain.count, using: &generator)
      let time =
        Bool.random(using: &generator)
        ? .distantFuture : SimTime(nanoseconds: .random(in: 0..<50, using: &generator))
      ends.set(i, time)
      plain[i] = time
      let from = Int.random(in: 0...plain.count, using: &generator)
      let end = Int.random(in: 0...plain.count, using: &generator)
      let threshold = SimTime(nanoseconds: .random(in: 0..<60, using: &generator))
      let scan = (from..<max(from, end)).first { plain[$0] < threshold }
      #expect(ends.first(from: from, below: end, before: threshold) == scan)
    }
  }

  // MARK: Parking

  static func run(reads: AdmissionInputGroups, until: SimTime?) -> WaitQueue.BlockedRun {
    WaitQueue.BlockedRun(until: until, epochs: AdmissionEpochs(), reads: reads)
  }

  @Test(
    "a parked queue is visited again when it changes, when a group it reads changes, or when its end comes first"
  )
  func parkedQueueComesBack() {
    var parking = ParkedQueues()
    for i: Int32 in 0..<3 { parking.touch(i) }
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: nil) == WaitQueue.Key(index: 0))
    // 0 waits for a start date at 100 s (reads the lock), 1 for Wi-Fi (the discretionary view),
    // 2 is empty.
    parking.park(0, Self.run(reads: .lock, until: SimTime(.seconds(100))), epochs: AdmissionEpochs())
    parking.park(
      1, Self.run(reads: [.lock, .rateLimiter, .discretionary], until: nil), epochs: AdmissionEpochs())
    parking.drop(2)
    // The armed timer at 100 s makes queue 0's pass do nothing; with none armed it would arm one.
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == nil)
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: nil) == WaitQueue.Key(index: 0))
    #expect(parking.next(from: 1, below: 3, now: .zero, armed: nil) == nil)
    // The app's state: neither run reads it.
    var epochs = AdmissionEpochs()
    epochs.appState += 1
    parking.release(changedFrom: epochs)
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == nil)
    // The network alone: the discretionary view did not move.
    epochs.network += 1
    parking.release(changedFrom: epochs)
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == nil)
    // The view moved: queue 1 comes back, queue 0 stays parked.
    epochs.discretionary += 1
    parking.release(changedFrom: epochs)
    #expect(
      parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == WaitQueue.Key(index: 1))
    #expect(parking.next(from: 2, below: 3, now: .zero, armed: SimTime(.seconds(100))) == nil)
    // A task queued in 2 brings it back; a change of the tasks' own inputs brings back every one.
    parking.touch(2)
    #expect(
      parking.next(from: 2, below: 3, now: .zero, armed: SimTime(.seconds(100))) == WaitQueue.Key(index: 2))
    parking.park(1, Self.run(reads: .lock, until: nil), epochs: AdmissionEpochs())
    parking.park(2, Self.run(reads: .lock, until: nil), epochs: AdmissionEpochs())
    #expect(parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == nil)
    epochs.tasks += 1
    parking.release(changedFrom: epochs)
    #expect(
      parking.next(from: 0, below: 3, now: .zero, armed: SimTime(.seconds(100))) == WaitQueue.Key(index: 0))
    #expect(
      parking.next(from: 1, below: 3, now: .zero, armed: SimTime(.seconds(100))) == WaitQueue.Key(index: 1))
    #expect(
      parking.next(from: 2, below: 3, now: .zero, armed: SimTime(.seconds(100))) == WaitQueue.Key(index: 2))
    // Only below the limit a loop was given (queues made since are not its).
    #expect(parking.next(from: 0, below: 0, now: .zero, armed: nil) == nil)
  }

  /// Full passes as the interpreter runs them (`.fullAdmissionPasses`): returns the queues
  /// visited; a re-evaluation asked for is armed, an admitted task starts.
  static func fullPasses(_ engine: Engine) -> [Int32] {
    var visited: [Int32] = []
    var cursor: Int32 = 0
    let queues = engine.daemon.waitQueueCount
    while let key = AdmissionPassRule.nextFullPass(from: cursor, below: queues, engine: engine) {
      visited.append(key.index)
      var effects = EffectBuffer()
      AdmissionPassRule.apply(key: key, full: true, engine: engine, into: &effects)
      for case .requestReevaluation(let time) in effects.effects
      where time > engine.now && engine.daemon.needsReevaluation(at: time) {
        if let armed = engine.daemon.reevaluation { _ = engine.scheduler.cancel(armed.handle) }
        engine.daemon.armedReevaluation(at: time, handle: engine.scheduler.schedule(.reevaluate, at: time))
      }
      AdmissionPassRuleTests.admit(effects.effects, engine: engine)
      AdmissionPassRule.fullPassDone(key, engine: engine)
      cursor = key.index + 1
    }
    return visited
  }

  /// Time moves to `time`, where the re-evaluation timer fires.
  static func fireReevaluation(at time: SimTime, _ engine: Engine) {
    while engine.scheduler.next(notAfter: time) != nil {}
    engine.daemon.reevaluationFired()
  }

  @Test(
    "full passes visit sessions waiting for start dates only when the lock changes or the earliest date comes"
  )
  func fullPassesVisitWhatMayAct() {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    // Five sessions, one task each, starting at 100, 200, ... 500 s.
    var tasks: [SimURLSessionTask] = []
    for i in 0..<5 {
      let task = AdmissionPassRuleTests.tasks(1, in: .background(withIdentifier: "s\(i)"), engine: engine)[0]
      engine.tasks[task].earliestBeginDate = SimTime(.seconds(100 * Int64(i + 1)))
      _ = engine.daemon.insert(task)
      tasks.append(task)
    }
    #expect(Self.fullPasses(engine) == [0, 1, 2, 3, 4])
    #expect(engine.daemon.reevaluation?.at == SimTime(.seconds(100)))
    // Nothing changed, then the app's state: no queue's pass could do anything.
    #expect(Self.fullPasses(engine) == [])
    _ = engine.lifecycle.userLaunch()
    #expect(Self.fullPasses(engine) == [])
    // The timer fires at 100 s: the first session starts, the second arms the next timer, and
    // the later ones, whose dates are after it, are not visited.
    Self.fireReevaluation(at: SimTime(.seconds(100)), engine)
    #expect(Self.fullPasses(engine) == [0, 1])
    #expect(tasks[0].machine.isActive)
    #expect(engine.daemon.reevaluation?.at == SimTime(.seconds(200)))
    // A task queued in a parked session brings that queue back, alone.
    let extra = AdmissionPassRuleTests.tasks(1, in: .background(withIdentifier: "s3"), engine: engine)[0]
    _ = engine.daemon.insert(extra)
    #expect(Self.fullPasses(engine) == [3])
    // The lock comes before every start date: every waiting queue is decided again.
    _ = engine.links.restart()
    #expect(Self.fullPasses(engine) == [1, 2, 3, 4])
  }

  @Test(
    "after the timer fires, only the session with the next start date is visited, whatever the sessions' order"
  )
  func fullPassesAfterTheTimerVisitTheEarliestOnly() {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    // Six sessions, one task each; the last made starts first (600, 500, ... 100 s).
    for i in 0..<6 {
      let task = AdmissionPassRuleTests.tasks(1, in: .background(withIdentifier: "s\(i)"), engine: engine)[0]
      engine.tasks[task].earliestBeginDate = SimTime(.seconds(100 * Int64(6 - i)))
      _ = engine.daemon.insert(task)
    }
    #expect(Self.fullPasses(engine) == [0, 1, 2, 3, 4, 5])
    #expect(engine.daemon.reevaluation?.at == SimTime(.seconds(100)))
    // At 100 s the last session starts; of the others only the one starting next (at 200 s)
    // arms the timer, and the rest, later, would each have armed a timer replaced at once.
    Self.fireReevaluation(at: SimTime(.seconds(100)), engine)
    #expect(Self.fullPasses(engine) == [4, 5])
    #expect(engine.daemon.reevaluation?.at == SimTime(.seconds(200)))
    Self.fireReevaluation(at: SimTime(.seconds(200)), engine)
    #expect(Self.fullPasses(engine) == [3, 4])
    #expect(engine.daemon.reevaluation?.at == SimTime(.seconds(300)))
  }

  // MARK: Records with work

  @Test("a record is listed while it may hold delegate events or tasks in the app's process")
  func sessionWork() {
    let engine = AdmissionPassRuleTests.engine()
    let records = (0..<4).map {
      engine.daemon.addSession(.background(withIdentifier: "s\($0)"), simulation: nil)
    }
    let work = engine.daemon.sessionWork
    func listed(_ set: KeySet) -> [Int] {
      var members: [Int] = []
      set.forEach { members.append($0) }
      return members
    }
    let download = AdmissionPassRuleTests.tasks(1, in: .background(withIdentifier: "d"), engine: engine)[0]
    records[2].queue(.didComplete(download, error: nil))
    records[1].queue(.didComplete(download, error: nil))
    #expect(listed(work.pending) == [1, 2])
    let taken = records[2].takePending()
    #expect(listed(work.pending) == [1])
    records[2].putBack(taken[...])
    #expect(listed(work.pending) == [1, 2])
    _ = records[1].takePending()
    _ = records[2].takePending()
    #expect(listed(work.pending) == [])
    // A data task lives in the app's process; a download does not.
    let data = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: records[3].nextIdentifier(), kind: .data,
      url: AdmissionPassRuleTests.url,
      session: records[3], name: nil, createdInBackground: false, resumeFrom: nil)
    engine.daemon.addTask(data)
    records[3].add(data)
    records[0].add(download)
    #expect(listed(work.inApp) == [3])
    _ = engine.tasks[data].machine.end(.finished)
    #expect(records[3].unfinishedTasksNeedingAppProcess().isEmpty)
    #expect(listed(work.inApp) == [])
  }

  @Test("a record is listed exactly while it has transfers holding connections")
  func transferringRecords() {
    let engine = AdmissionPassRuleTests.engine(limit: 4)
    let tasks = (0..<3).map {
      AdmissionPassRuleTests.tasks(2, in: .background(withIdentifier: "s\($0)"), engine: engine)
    }
    func listed() -> [Int] {
      var members: [Int] = []
      engine.daemon.sessionWork.transferring.forEach { members.append($0) }
      return members
    }
    func start(_ task: SimURLSessionTask) { _ = engine.tasks[task].machine.admit(at: engine.now) }
    #expect(listed() == [])
    start(tasks[2][0])
    start(tasks[2][1])
    start(tasks[0][1])
    #expect(listed() == [0, 2])
    #expect(engine.daemon.sessionsWithTransfers.map(\.identifier) == ["s0", "s2"])
    #expect(
      engine.daemon.activeTransfers().map(\.uid) == [tasks[0][1].uid, tasks[2][0].uid, tasks[2][1].uid])
    _ = engine.tasks[tasks[2][0]].machine.end(.finished)
    #expect(listed() == [0, 2])
    _ = engine.tasks[tasks[2][1]].machine.end(.finished)
    _ = engine.tasks[tasks[0][1]].machine.end(.finished)
    #expect(listed() == [])
    #expect(engine.daemon.activeTransfers().isEmpty)
  }
}
