import BgsimFoundation
import Foundation
import Testing

/// `SimTime` and `SimDuration` arithmetic written the natural way in a test file that imports
/// Foundation beside the bridge, as every user's does.
@Suite struct SimTimeArithmeticTests {
  @Test func durationsAddInAFileThatImportsFoundation() {
    let at = SimTime(.minutes(10) + .seconds(15))
    #expect(at.nanoseconds == 615 * 1_000_000_000)
    let later = at + .hours(1) + .milliseconds(500)
    // Inside `#expect` each side is typed alone: name the type where a side is all implicit members.
    #expect(later - at == SimDuration.seconds(3_600) + .milliseconds(500))
    #expect(SimTime(.seconds(2) - .milliseconds(250)) < SimTime(.seconds(2)))
    let step: SimDuration = .minutes(1) * 3
    #expect(step == .seconds(180))
    #expect(SimDuration.seconds(1) * Int64.max == SimDuration(nanoseconds: Int64.max))
    #expect(SimTime.distantFuture + .seconds(1) == .distantFuture)
  }
}
