import SimKernel
import Testing

@testable import TransferEngine

/// The background-task assertions alone: each input, no `Simulation`.
@Suite("Background task assertions (component)")
struct BackgroundAssertionsTests {
  @Test("an open assertion holds a suspension until it ends; ending the last suspends")
  func holdsSuspension() {
    var a = BackgroundAssertions()
    let first = a.begin(name: "save")
    let second = a.begin(name: "log")
    let held = a.maySuspend()
    #expect(!held)
    #expect(a.end(first) == .ended(.init(identifier: first, name: "save")))
    #expect(a.end(second) == .endedSuspendNow(.init(identifier: second, name: "log")))
    #expect(a.end(second) == .unknown)
    let free = a.maySuspend()
    #expect(free)
  }

  @Test("the budget runs from entering the background, is armed once, and only with an assertion open")
  func budget() {
    var a = BackgroundAssertions()
    a.enteredBackground(at: SimTime(.seconds(2)), limit: .seconds(30))
    #expect(a.expiryToArm(now: SimTime(.seconds(2))) == nil)
    _ = a.begin(name: "save")
    let armed = a.expiryToArm(now: SimTime(.seconds(3)))
    #expect(armed?.at == SimTime(.seconds(32)))
    #expect(a.expiryToArm(now: SimTime(.seconds(4))) == nil)
    #expect(a.expired(generation: armed!.generation)?.map(\.name) == ["save"])
    // Spent: an assertion begun later in the same stretch expires at once.
    _ = a.begin(name: "late")
    #expect(a.expiryToArm(now: SimTime(.seconds(40)))?.at == SimTime(.seconds(40)))
  }

  @Test("ended in any order, the open ones stay in the order begun, also after the list is compacted")
  func orderAfterEnds() {
    var a = BackgroundAssertions()
    let ids = (0..<200).map { a.begin(name: "t\($0)") }
    // End every id not divisible by 3, from the back (the list is compacted along the way).
    for id in ids.reversed() where id % 3 != 0 { _ = a.end(id) }
    let left = ids.filter { $0 % 3 == 0 }
    #expect(a.open.map(\.identifier) == left)
    #expect(a.open.map(\.name) == left.map { "t\($0 - 1)" })
    #expect(ids.allSatisfy { a.isOpen($0) == ($0 % 3 == 0) })
    #expect(a.end(ids[1]) == .unknown)
    let later = a.begin(name: "later")
    #expect(a.open.last == .init(identifier: later, name: "later"))
    for id in left + [later] { _ = a.end(id) }
    #expect(!a.hasOpen && a.open.isEmpty)
  }

  @Test("foregrounding makes an armed expiry stale; the process ending drops every assertion")
  func staleAndEnded() {
    var a = BackgroundAssertions()
    _ = a.begin(name: "save")
    a.enteredBackground(at: .zero, limit: .seconds(30))
    let armed = a.expiryToArm(now: .zero)!
    a.enteredForeground()
    #expect(a.expired(generation: armed.generation) == nil)
    #expect(a.open.map(\.name) == ["save"])
    a.processEnded()
    #expect(a.open.isEmpty)
    let free = a.maySuspend()
    #expect(free)
  }
}
