import ExplorationKit
import Foundation
import Testing

@Suite struct ShrinkerTests {
  @Test func keepsTheOneElementThatFails() {
    var calls = 0
    let shrunk = Shrinker.minimize(Array(0..<16)) { list in
      calls += 1
      return list.contains(11)
    }
    #expect(shrunk == [11])
    #expect(calls < 40)
  }

  @Test func keepsAPairThatFailsOnlyTogether() {
    let shrunk = Shrinker.minimize(Array(0..<10)) { $0.contains(2) && $0.contains(7) }
    #expect(shrunk == [2, 7])
  }

  @Test func aListThatCannotShrinkStaysWhole() {
    let shrunk = Shrinker.minimize([1, 2, 3]) { $0.count == 3 }
    #expect(shrunk == [1, 2, 3])
  }

  @Test func shardsReadKOfN() {
    #expect(Shard("2/3") == Shard("2/3"))
    #expect(Shard("2/3")?.index == 2)
    #expect(Shard("2/3")?.count == 3)
    #expect(Shard("0/3") == nil)
    #expect(Shard("4/3") == nil)
    #expect(Shard("x") == nil)
  }
}
