import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The Foundation task objects of a process that ended are released while the simulation runs on
/// (a few while the app runs each later delegate call), not kept until the simulation ends.
@Suite struct BridgeDeadTaskObjectsTests {
  @Test func aDeadProcesssTaskObjectsAreReleasedDuringTheRun() throws {
    let alive = try DeferredReleaseLimitTests.objectsAlive(deferredReleaseLimit: nil)
    // The relaunched process heard of every task (two calls each), so the first one's objects
    // had their turn; the simulation is still alive when they are counted.
    #expect(alive.heard == 20)
    #expect(alive.atDeath == 20, "released at the death, before any later call: not deferred")
    #expect(alive.atEnd == 0)
  }
}
