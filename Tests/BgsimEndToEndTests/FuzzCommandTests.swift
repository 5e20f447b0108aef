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
    // The largest seeds too: each is written as its scenario's `seed`, which the loader takes.
    let largest = try BgsimSandbox().run(["fuzz", "--seeds", "18446744073709551614-18446744073709551615"])
    #expect(largest.status == 0, "\(largest.stdout)\(largest.stderr)")
    #expect(largest.stdout.contains("fuzzed 2 seeds (18446744073709551614-18446744073709551615)"))
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

  @Test("--jobs runs the seeds on threads and prints what one thread does")
  func jobs() throws {
    let one = try BgsimSandbox().run(["fuzz", "--seeds", "1-40", "--jobs", "1"])
    let three = try BgsimSandbox().run(["fuzz", "--seeds", "1-40", "--jobs", "3"])
    #expect(one.status == 0 && three.status == 0, "\(one.stdout)\(three.stdout)")
    for (result, jobs) in [(one, 1), (three, 3)] {
      #expect(result.stdout.hasPrefix("fuzzed 40 seeds (1-40) in "))
      #expect(result.stdout.hasSuffix(", \(jobs) jobs): 0 failing\n"))
    }
    let extreme = try BgsimSandbox().run(["fuzz", "--extreme", "--seeds", "1-6", "--jobs", "2"])
    #expect(extreme.status == 0, "\(extreme.stdout)\(extreme.stderr)")
    #expect(extreme.stdout.contains(" s with 2 jobs, "))
  }

  @Test(
    "bad arguments exit 2",
    arguments: [
      ["fuzz", "--seeds", "9-3"], ["fuzz", "--iterations", "5"], ["fuzz", "--extreme", "--minimize"],
      ["fuzz", "--jobs", "0"], ["fuzz", "--loader", "--jobs", "2"], ["fuzz", "x.json", "--jobs", "2"],
      ["fuzz", "--seeds", "1-18446744073709551616"],
    ])
  func badArguments(arguments: [String]) throws {
    let result = try BgsimSandbox().run(arguments)
    #expect(result.status == 2)
    #expect(result.stderr.contains("usage: bgsim fuzz"))
  }
}
