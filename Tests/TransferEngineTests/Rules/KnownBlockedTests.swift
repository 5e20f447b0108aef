import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// A pass skips the tasks the last passes found blocked for a lasting reason (`KnownBlockedRun`),
/// as long as nothing they depend on changed (`Engine.AdmissionInputs`) and their instants have
/// not come; it must decide what a walk of the whole queue would.
@Suite("Rule: admission passes skip tasks known to be blocked")
struct KnownBlockedTests {
  /// On a constrained network with one connection per host: `blocked` tasks that refuse
  /// constrained networks, queued first, then `ready` tasks that accept it.
  static func queue(blocked: Int, ready: Int) -> (Engine, [SimURLSessionTask], [SimURLSessionTask]) {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    _ = engine.links.apply(NetworkState(interface: .wifi, constrained: true), now: .zero)
    let all = AdmissionPassRuleTests.tasks(
      blocked + ready, in: SessionConfiguration(identifier: "bg", kind: .background), engine: engine)
    for task in all.prefix(blocked) { engine.tasks[task].allowsConstrainedNetworkAccess = false }
    return (engine, Array(all.prefix(blocked)), Array(all.suffix(ready)))
  }

  /// Queues `tasks` and runs the full passes, as a resume would one by one.
  static func enqueue(_ tasks: [SimURLSessionTask], engine: Engine) {
    for task in tasks { _ = engine.daemon.insert(task) }
    var effects = EffectBuffer()
    AdmissionPassRule.apply(
      key: engine.daemon.ensureQueue(for: tasks[0]), full: true, engine: engine, into: &effects)
    AdmissionPassRuleTests.admit(effects.effects, engine: engine)
  }

  /// The known-blocked run of `task`'s queue, read without changing it.
  static func run(of task: SimURLSessionTask, engine: Engine) -> KnownBlockedRun {
    let key = engine.daemon.ensureQueue(for: task)
    let queue = engine.daemon.takeQueue(key)
    engine.daemon.restore(queue, key: key)
    return queue.run
  }

  /// The queue's count of tasks known blocked.
  static func knownBlocked(_ task: SimURLSessionTask, engine: Engine) -> Int {
    run(of: task, engine: engine).blockedCount
  }

  /// A connection of `task`'s pair closes (the task finished) and its queue's pass runs.
  static func finish(_ task: SimURLSessionTask, engine: Engine) -> [Effect] {
    _ = engine.tasks[task].machine.end(.finished)
    var effects = EffectBuffer()
    AdmissionPassRule.releaseConnection(of: task, admitting: true, engine: engine, into: &effects)
    AdmissionPassRuleTests.admit(effects.effects, engine: engine)
    return effects.effects
  }

  /// Queues `ahead` then `ready` (one connection): the first ready task starts, the others are
  /// known blocked, and its finish starts the next ready one with nothing else done.
  static func expectRunSkipped(
    ahead: [SimURLSessionTask], ready: [SimURLSessionTask], engine: Engine,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    enqueue(ahead + ready, engine: engine)
    #expect(ready[0].machine.isActive, sourceLocation: sourceLocation)
    #expect(knownBlocked(ready[1], engine: engine) == ahead.count, sourceLocation: sourceLocation)
    #expect(
      finish(ready[0], engine: engine) == [.beginAttempt(uid: ready[1].uid)], sourceLocation: sourceLocation)
  }

  @Test("a freed slot goes to the first task that may start, behind the blocked ones, with nothing else done")
  func skipsTheBlockedRun() throws {
    let (engine, blocked, ready) = Self.queue(blocked: 50, ready: 3)
    Self.expectRunSkipped(ahead: blocked, ready: ready, engine: engine)
    #expect(Self.knownBlocked(ready[2], engine: engine) == 50)
    #expect(blocked.allSatisfy { $0.machine.isWaiting })
    // The last ready task, left for the next pass when the one before took the slot, takes it next.
    #expect(Self.finish(ready[1], engine: engine) == [.beginAttempt(uid: ready[2].uid)])
  }

  @Test("a blocked task the app lets use the network again takes the next freed slot, ahead of the others")
  func aChangedTaskIsDecidedAgain() throws {
    let (engine, blocked, ready) = Self.queue(blocked: 20, ready: 3)
    Self.enqueue(blocked + ready, engine: engine)
    // Through the app's handle, as the app would.
    blocked[7].allowsConstrainedNetworkAccess = true
    let effects = Self.finish(ready[0], engine: engine)
    #expect(effects == [.beginAttempt(uid: blocked[7].uid)])
    #expect(ready[1].machine.isWaiting)
  }

  @Test("a task queued ahead of the blocked run ends it there")
  func anInsertAheadShortensTheRun() throws {
    let (engine, blocked, ready) = Self.queue(blocked: 10, ready: 2)
    Self.enqueue(blocked + ready, engine: engine)
    #expect(Self.knownBlocked(ready[1], engine: engine) == 10)
    let late = AdmissionPassRuleTests.tasks(
      1, in: SessionConfiguration(identifier: "bg", kind: .background), engine: engine)[0]
    engine.tasks[late].priority = 1
    _ = engine.daemon.insert(late)
    #expect(Self.knownBlocked(late, engine: engine) == 0)
    // The next pass starts it (ready[0]'s slot), walks the blocked run again and finds it whole.
    #expect(Self.finish(ready[0], engine: engine) == [.beginAttempt(uid: late.uid)])
    #expect(Self.knownBlocked(ready[1], engine: engine) == 10)
  }

  @Test("a blocked task taken out of its queue shortens the run by one")
  func aRemovalShortensTheRun() throws {
    let (engine, blocked, ready) = Self.queue(blocked: 10, ready: 2)
    Self.enqueue(blocked + ready, engine: engine)
    engine.daemon.removeFromQueue(blocked[3])
    #expect(Self.knownBlocked(ready[1], engine: engine) == 9)
  }

  /// With one connection per host: `deferred` tasks whose start dates are 100 s, 110 s, ... from
  /// now, queued first, then `ready` tasks with none.
  static func startDateQueue(deferred: Int, ready: Int) -> (Engine, [SimURLSessionTask], [SimURLSessionTask])
  {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    let all = AdmissionPassRuleTests.tasks(
      deferred + ready, in: SessionConfiguration(identifier: "bg", kind: .background), engine: engine)
    for (i, task) in all.prefix(deferred).enumerated() {
      engine.tasks[task].earliestBeginDate = SimTime(.seconds(100 + 10 * Int64(i)))
    }
    return (engine, Array(all.prefix(deferred)), Array(all.suffix(ready)))
  }

  @Test("tasks waiting for their start dates are skipped until the earliest date comes")
  func startDatesAreSkippedUntilTheyCome() throws {
    let (engine, deferred, ready) = Self.startDateQueue(deferred: 30, ready: 3)
    // The 30 ahead are not decided again: no re-evaluation asked for each (one is armed already).
    Self.expectRunSkipped(ahead: deferred, ready: ready, engine: engine)
    // The first start date came: the next pass walks the queue again, and starts that task.
    engine.scheduler.advance(to: SimTime(.seconds(100)))
    let effects = Self.finish(ready[1], engine: engine)
    #expect(
      effects.filter { if case .beginAttempt = $0 { true } else { false } } == [
        .beginAttempt(uid: deferred[0].uid)
      ])
    // The 29 still waiting are not decided again: one re-evaluation, at the earliest of theirs.
    let asked = effects.filter { if case .requestReevaluation = $0 { true } else { false } }
    #expect(asked == [.requestReevaluation(at: SimTime(.seconds(110)))], "\(effects)")
    #expect(Self.knownBlocked(ready[2], engine: engine) == 29)
  }

  @Test("each start date that comes decides its own task again, not the whole queue")
  func eachDateDecidesItsOwnTask() throws {
    let (engine, deferred, _) = Self.startDateQueue(deferred: 200, ready: 0)
    Self.enqueue(deferred, engine: engine)
    let key = engine.daemon.ensureQueue(for: deferred[0])
    for (i, task) in deferred.enumerated() {
      // The re-evaluation timer fires at the task's date: one full pass over the queue.
      engine.scheduler.advance(to: SimTime(.seconds(100 + 10 * Int64(i))))
      var effects = EffectBuffer()
      AdmissionPassRule.apply(key: key, full: true, engine: engine, into: &effects)
      // One re-evaluation for the 199 - i still waiting, at the next date; a walk of the queue
      // asked once for each.
      let next: [Effect] =
        i + 1 < deferred.count ? [.requestReevaluation(at: SimTime(.seconds(110 + 10 * Int64(i))))] : []
      #expect(effects.effects == next + [.beginAttempt(uid: task.uid)], "date \(i)")
      AdmissionPassRuleTests.admit(effects.effects, engine: engine)
      #expect(Self.finish(task, engine: engine).isEmpty)
      #expect(Self.knownBlocked(task, engine: engine) == deferred.count - 1 - i)
    }
  }

  /// How many filed tasks the last pass over `task`'s queue decided again.
  static func revisited(_ task: SimURLSessionTask, engine: Engine) -> Int {
    run(of: task, engine: engine).revisitedInLastPass
  }

  @Test("a date's full pass leaves tasks held for a connection alone while none frees and no input changes")
  func heldForAConnection() throws {
    let (engine, deferred, ready) = Self.startDateQueue(deferred: 60, ready: 1)
    Self.enqueue(deferred + ready, engine: engine)
    #expect(ready[0].machine.isActive)  // it holds the one connection from now on
    let key = engine.daemon.ensureQueue(for: ready[0])
    func datePass(_ i: Int) -> [Effect] {
      engine.scheduler.advance(to: SimTime(.seconds(100 + 10 * Int64(i))))
      var effects = EffectBuffer()
      AdmissionPassRule.apply(key: key, full: true, engine: engine, into: &effects)
      return effects.effects
    }
    for i in 0..<40 {
      // The task whose date came waits for the connection (traced once); the i before it are
      // held as they were and are not decided again.
      let effects = datePass(i)
      #expect(effects.contains(AdmissionPassRuleTests.deferred(deferred[i], "connectionLimit")), "date \(i)")
      #expect(Self.revisited(deferred[i], engine: engine) == 1, "date \(i)")
    }
    // An input changes (the power): the next date's pass decides every held task again, and
    // they are held again, with nothing traced.
    engine.links.apply(PowerState(charging: true))
    let effects = datePass(40)
    #expect(Self.revisited(deferred[0], engine: engine) == 41)
    #expect(effects.filter { if case .trace = $0 { true } else { false } }.count == 1)
    // The connection frees up: the first held task takes it (its pass stops at the next held
    // one), and the next date's pass leaves the other 40 alone again, the connection taken.
    #expect(Self.finish(ready[0], engine: engine) == [.beginAttempt(uid: deferred[0].uid)])
    #expect(Self.revisited(deferred[0], engine: engine) == 2)
    #expect(deferred[0].machine.isActive)
    _ = datePass(41)
    #expect(Self.revisited(deferred[1], engine: engine) == 1)
  }

  @Test("a start date the app moves earlier ends the skip (a setter on a waiting task)")
  func aStartDateMovedEarlier() throws {
    let (engine, deferred, ready) = Self.startDateQueue(deferred: 5, ready: 2)
    Self.enqueue(deferred + ready, engine: engine)
    deferred[3].earliestBeginDate = SimTime(.seconds(1))
    engine.scheduler.advance(to: SimTime(.seconds(2)))
    #expect(Self.finish(ready[0], engine: engine).last == .beginAttempt(uid: deferred[3].uid))
  }

  @Test("tasks the rate limiter holds are skipped until its delay runs out")
  func rateLimitedTasksAreSkippedUntilTheDelayEnds() throws {
    let engine = AdmissionPassRuleTests.engine(limit: 1)
    _ = engine.rateLimiter.wake(at: .zero)
    let expiry = engine.rateLimiter.expiry
    try #require(expiry > .zero)
    let record = engine.daemon.addSession(
      SessionConfiguration(identifier: "bg", kind: .background), simulation: nil)
    let all = (0..<6).map { i in
      let task = SimURLSessionTask(
        in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: .download,
        url: AdmissionPassRuleTests.url, session: record, name: nil, createdInBackground: i < 4,
        resumeFrom: nil)
      engine.daemon.addTask(task)
      record.add(task)
      _ = engine.tasks[task].machine.resume()
      return task
    }
    let (held, ready) = (Array(all.prefix(4)), Array(all.suffix(2)))
    Self.enqueue(all, engine: engine)
    #expect(held.allSatisfy { $0.machine.isWaiting })
    #expect(Self.knownBlocked(ready[1], engine: engine) == 4)
    #expect(Self.finish(ready[0], engine: engine) == [.beginAttempt(uid: ready[1].uid)])
    engine.scheduler.advance(to: expiry)
    #expect(Self.finish(ready[1], engine: engine).contains(.beginAttempt(uid: held[0].uid)))
  }

  /// Each change an admission decision can depend on, other than the task and the time.
  enum Change: String, CaseIterable, CustomStringConvertible {
    case network, power, server, lock, rateLimiterWake, appState, sessionAttached, waitingTaskSetter
    var description: String { rawValue }
  }

  @Test("every input of a lasting block is watched", arguments: Change.allCases)
  func inputsChange(_ change: Change) throws {
    let (engine, blocked, _) = Self.queue(blocked: 2, ready: 0)
    Self.enqueue(blocked, engine: engine)
    let before = engine.admissionInputs
    switch change {
    case .network: _ = engine.links.apply(NetworkState(interface: .cellular), now: .zero)
    case .power: engine.links.apply(PowerState(charging: true))
    case .server:
      engine.links.apply(ServerChange(at: .zero, url: AdmissionPassRuleTests.url, size: 10))
    case .lock: _ = engine.links.restart()
    case .rateLimiterWake: _ = engine.rateLimiter.wake(at: .zero)
    case .appState: _ = engine.lifecycle.userLaunch()
    case .sessionAttached: engine.daemon.sessionAttached()
    case .waitingTaskSetter: blocked[0].countOfBytesClientExpectsToReceive = 1_000
    }
    #expect(engine.admissionInputs != before)
  }

  @Test("the app's changes to a task not yet resumed change no input")
  func aSetterOutsideTheQueue() {
    let engine = AdmissionPassRuleTests.engine()
    let record = engine.daemon.addSession(
      SessionConfiguration(identifier: "bg", kind: .background), simulation: nil)
    let task = SimURLSessionTask(
      in: engine.tasks, taskIdentifier: record.nextIdentifier(), kind: .download,
      url: AdmissionPassRuleTests.url,
      session: record, name: "made", createdInBackground: false, resumeFrom: nil)
    engine.daemon.addTask(task)
    record.add(task)
    let before = engine.admissionInputs
    task.countOfBytesClientExpectsToReceive = 1_000
    task.earliestBeginDate = SimTime(.seconds(5))
    task.allowsConstrainedNetworkAccess = false
    #expect(engine.admissionInputs == before)
    _ = engine.tasks[task].machine.resume()
    task.countOfBytesClientExpectsToSend = 10
    #expect(engine.admissionInputs != before)
  }
}
