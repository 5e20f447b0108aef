import SimKernel
import Testing

@testable import TransferEngine

/// The shared link alone: processor sharing with virtual time, no `Simulation`.
@Suite("Shared link")
struct SharedLinkTests {
  @Test("add: one flow gets the whole capacity; nextCompletion is computed, not stepped")
  func oneFlow() {
    var link = SharedLink()
    link.setCapacity(1000, now: .zero)
    link.add(0, bytes: 5000, now: .zero)
    #expect(link.nextCompletion() == SimTime(.seconds(5)))
    #expect(link.bytesRemaining(0, now: SimTime(.seconds(2))) == 3000)
  }

  @Test("two flows share equally; the shorter finishes first and the other speeds up")
  func sharing() {
    var link = SharedLink()
    link.setCapacity(1000, now: .zero)
    link.add(0, bytes: 1000, now: .zero)
    link.add(1, bytes: 3000, now: .zero)
    #expect(link.nextCompletion() == SimTime(.seconds(2)))
    let r106 = link.popFinished(now: SimTime(.seconds(2)))
    #expect(r106 == [0])
    #expect(link.bytesRemaining(1, now: SimTime(.seconds(2))) == 2000)
    #expect(link.nextCompletion() == SimTime(.seconds(4)))
  }

  @Test("remove returns the bytes left; an absent flow has none")
  func remove() {
    var link = SharedLink()
    link.setCapacity(1000, now: .zero)
    link.add(3, bytes: 4000, now: .zero)
    let r107 = link.remove(3, now: SimTime(.seconds(1)))
    #expect(r107 == 3000)
    let r108 = link.remove(3, now: SimTime(.seconds(1)))
    #expect(r108 == 0)
    #expect(link.activeCount == 0 && link.nextCompletion() == nil)
  }

  @Test("setCapacity to 0 holds every flow; restoring it resumes them where they were")
  func capacity() {
    var link = SharedLink()
    link.setCapacity(1000, now: .zero)
    link.add(0, bytes: 4000, now: .zero)
    link.setCapacity(0, now: SimTime(.seconds(1)))
    #expect(link.nextCompletion() == nil)
    link.setCapacity(1000, now: SimTime(.seconds(10)))
    #expect(link.bytesRemaining(0, now: SimTime(.seconds(10))) == 3000)
    #expect(link.nextCompletion() == SimTime(.seconds(13)))
  }
}
