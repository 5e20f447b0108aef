import Foundation
import Testing

/// `bgsim fuzz` as a user runs it.
@Suite("bgsim fuzz")
struct FuzzCommandTests {
  @Test("a few seeds and a few loader inputs find nothing and exit 0")
  func clean() throws {
    let seeds = try BgsimSandbox().run(["fuzz", "--seeds", "1-20"])
    #expect(seeds.status == 0, "\(seeds.stdout)\(seeds.stderr)")
    #expect(seeds.stdout.contains("fuzzed 20 seeds (1-20)"))
    #expect(seeds.stdout.contains(": 0 failing"))
    let loader = try BgsimSandbox().run(["fuzz", "--loader", "--iterations", "300"])
    #expect(loader.status == 0, "\(loader.stdout)\(loader.stderr)")
    #expect(loader.stdout.contains("loader: 300 inputs"))
  }

  @Test("bad arguments exit 2", arguments: [["fuzz", "--seeds", "9-3"], ["fuzz", "--iterations", "5"]])
  func badArguments(arguments: [String]) throws {
    let result = try BgsimSandbox().run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: bgsim fuzz"))
  }
}
