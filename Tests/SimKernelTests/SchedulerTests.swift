import SimKernel
import Testing

/// The loop a `run(until:)` is built from: handle every event due at or before `limit`,
/// letting `handle` schedule more, then move the clock to the limit.
private func run(
  _ scheduler: inout Scheduler<String>, until limit: SimTime,
  handle: (String, inout Scheduler<String>) -> Void = { _, _ in }
) -> [String] {
  var fired: [String] = []
  while let event = scheduler.next(notAfter: limit) {
    fired.append("\(scheduler.now.nanoseconds):\(event)")
    handle(event, &scheduler)
  }
  scheduler.advance(to: limit)
  return fired
}

@Suite("Scheduler")
struct SchedulerTests {
  @Test("events exactly at the limit fire; later ones stay pending")
  func limitIsInclusive() {
    var scheduler = Scheduler<String>()
    scheduler.schedule("before", at: SimTime(nanoseconds: 99))
    scheduler.schedule("at", at: SimTime(nanoseconds: 100))
    scheduler.schedule("after", at: SimTime(nanoseconds: 101))
    #expect(run(&scheduler, until: SimTime(nanoseconds: 100)) == ["99:before", "100:at"])
    #expect(scheduler.now == SimTime(nanoseconds: 100))
    #expect(scheduler.pendingCount == 1)
    let nextTime = scheduler.nextEventTime()
    #expect(nextTime == SimTime(nanoseconds: 101))
    #expect(run(&scheduler, until: .distantFuture).first == "101:after")
  }

  @Test("events scheduled while handling fire in the same run when due by the limit")
  func eventsScheduledDuringHandling() {
    var scheduler = Scheduler<String>()
    scheduler.schedule("start", at: SimTime(nanoseconds: 10))
    let fired = run(&scheduler, until: SimTime(nanoseconds: 50)) { event, scheduler in
      guard event == "start" else { return }
      scheduler.schedule("same instant", after: .zero)
      scheduler.schedule("at limit", at: SimTime(nanoseconds: 50))
      scheduler.schedule("past limit", at: SimTime(nanoseconds: 51))
      scheduler.schedule("soon", after: .nanoseconds(5))
    }
    #expect(fired == ["10:start", "10:same instant", "15:soon", "50:at limit"])
    #expect(scheduler.pendingCount == 1)
    #expect(scheduler.now == SimTime(nanoseconds: 50))
  }

  @Test("advance(to:) moves now forward when nothing is skipped, and never backwards")
  func advance() {
    var scheduler = Scheduler<String>()
    scheduler.schedule("later", at: SimTime(nanoseconds: 1_000))
    scheduler.advance(to: SimTime(nanoseconds: 400))
    #expect(scheduler.now == SimTime(nanoseconds: 400))
    scheduler.advance(to: SimTime(nanoseconds: 1_000))  // up to the event itself is allowed
    #expect(scheduler.now == SimTime(nanoseconds: 1_000))
    scheduler.advance(to: SimTime(nanoseconds: 10))
    #expect(scheduler.now == SimTime(nanoseconds: 1_000))
    let event = scheduler.next(notAfter: SimTime(nanoseconds: 1_000))
    #expect(event == "later")
  }

  @Test("advance(to:) past a pending event is an internal inconsistency")
  func advanceRefusesToSkip() async {
    await #expect(processExitsWith: .failure) {
      var scheduler = Scheduler<String>()
      scheduler.schedule("skipped", at: SimTime(nanoseconds: 5))
      scheduler.advance(to: SimTime(nanoseconds: 6))
    }
  }

  @Test("scheduling before now is an internal inconsistency")
  func scheduleInThePast() async {
    await #expect(processExitsWith: .failure) {
      var scheduler = Scheduler<String>()
      scheduler.advance(to: SimTime(nanoseconds: 10))
      scheduler.schedule("late", at: SimTime(nanoseconds: 9))
    }
  }

  @Test("a cancelled event does not fire and does not move the clock")
  func cancelledEventsDoNotMoveTheClock() {
    var scheduler = Scheduler<String>()
    let handle = scheduler.schedule("cancelled", at: SimTime(nanoseconds: 30))
    scheduler.schedule("kept", at: SimTime(nanoseconds: 60))
    #expect(scheduler.isPending(handle))
    let cancelled = scheduler.cancel(handle)
    #expect(cancelled)
    #expect(!scheduler.isPending(handle))
    let cancelledAgain = scheduler.cancel(handle)
    #expect(!cancelledAgain)
    let early = scheduler.next(notAfter: SimTime(nanoseconds: 40))
    #expect(early == nil)
    #expect(scheduler.now == .zero)
    #expect(run(&scheduler, until: SimTime(nanoseconds: 100)) == ["60:kept"])
  }

  @Test("now never goes back over a long random run", arguments: [UInt64(1), 99])
  func nowIsMonotonic(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var scheduler = Scheduler<Int>()
    for i in 0..<100 { scheduler.schedule(i, after: random.exponential(mean: .milliseconds(3))) }
    var previous = scheduler.now
    var fired = 0
    var limit = SimTime.zero
    while fired < 20_000 {
      limit = limit + random.exponential(mean: .milliseconds(1))
      while let event = scheduler.next(notAfter: limit) {
        #expect(scheduler.now >= previous)
        #expect(scheduler.now <= limit)
        previous = scheduler.now
        fired += 1
        scheduler.schedule(event, after: random.uniform(0...2) == 0 ? .zero : .microseconds(700))
      }
      scheduler.advance(to: limit)
      #expect(scheduler.now == limit)
      previous = limit
    }
    #expect(scheduler.pendingCount == 100)
  }
}
