import ExplorationKit
import Foundation
import SimKernel
import Testing

@Suite struct FaultTests {
  @Test func aFaultsIdentityIsItsKindAndTimeNotItsLabel() {
    let at = SimTime(.seconds(3))
    #expect(Fault.terminate(at: at, after: "after delegate.didComplete") == Fault.terminate(at: at))
    #expect(Fault.terminate(at: at) != Fault.forceQuit(at: at))
    #expect(Fault.terminate(at: at) != Fault.terminate(at: at + .nanoseconds(1)))
  }

  @Test func swiftSourceIsTheCallToPaste() {
    let fault = Fault.network(at: SimTime(.seconds(2)), .offline, lasting: .seconds(30))
    #expect(
      fault.swiftSource
        == ".network(at: SimTime(nanoseconds: 2000000000), .offline, lasting: .nanoseconds(30000000000))")
    #expect(Fault.terminate(at: .zero).swiftSource == ".terminate(at: SimTime(nanoseconds: 0))")
  }

  @Test func userReturnsAfterIsASetting() {
    let faults = FaultSet.all.userReturning(after: .minutes(5))
    #expect(faults.userReturnsAfter == .minutes(5))
    #expect(faults.contains(.forceQuit))
    #expect(FaultSet.all.userReturnsAfter == .minutes(1))
  }
}
