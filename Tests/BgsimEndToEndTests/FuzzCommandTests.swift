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

  @Test("extreme scenarios end within their budgets, a few stopped by them")
  func extreme() throws {
    let result = try BgsimSandbox().run(["fuzz", "--extreme", "--seeds", "1-8"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasPrefix("extreme: 8 seeds (1-8) in "))
    #expect(result.stdout.contains(" stopped by a budget: 0 failing\n"))
  }

  @Test(
    "bad arguments exit 2",
    arguments: [
      ["fuzz", "--seeds", "9-3"], ["fuzz", "--iterations", "5"], ["fuzz", "--extreme", "--minimize"],
    ])
  func badArguments(arguments: [String]) throws {
    let result = try BgsimSandbox().run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: bgsim fuzz"))
  }
}
