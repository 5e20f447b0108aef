import BgsimTesting
import Foundation
import Testing

/// `import BgsimTesting` beside `import Foundation` is enough for the simulation's time arithmetic
/// (exploration.md): this file compiling is most of the test.
@Suite struct ArithmeticTests {
  @Test func timeAndDurationArithmeticTypeChecks() {
    let start = SimTime(.seconds(1))
    let later = start + .milliseconds(200)
    let gap: SimDuration = later - start
    #expect(gap == .milliseconds(200))
    #expect(later > start)
    #expect(gap * 3 == SimDuration.milliseconds(600))
  }
}
