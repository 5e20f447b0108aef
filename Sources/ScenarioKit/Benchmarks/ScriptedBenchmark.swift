import SimKernel
import TransferEngine

/// performance.md's `scripted N`: the JSON scripted app creating N downloads through one
/// `count` and finishing them, loaded, run and checked as `bgsim run` does it; and a runaway
/// fan-out (every finished download starts two more) run until a default budget stops it.
///
/// Time per task at N = 100,000 must stay within 2x of N = 10,000 (no quadratic path: issue 26
/// found a dictionary copy per created task and a trace pass per task of a `*` expectation), and
/// the runaway must get its message within 10 s. Wall time is measured by the caller.
public enum ScriptedBenchmark {
  /// What one run did.
  public struct Outcome: Sendable {
    /// Tasks the scenario asked for (N), or that the runaway created before it stopped.
    public var tasks: Int
    /// Engine events handled.
    public var events: Int
    /// Trace events recorded (what the trace budget counts).
    public var traceEvents: Int
    /// Whether the run played and every expectation held (the runaway: false).
    public var passed: Bool
    /// The budget that stopped the run, if one did.
    public var budgetExceeded: BudgetExceeded.Limit?
  }

  /// The sizes performance.md measures, and the ratio's target between the last and the first.
  public static let sizes = [10_000, 100_000]

  /// N downloads of 10 KB, one `download` entry with `count` N, on 1 Gbps Wi-Fi; the expectation
  /// that every one completed is a `*` pattern, so it reads every task's events.
  public static func scenario(tasks n: Int) -> String {
    """
    {"name": "bench-scripted-\(n)", "seed": 1, "duration": "1d",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "1Gbps", "up": "100Mbps", "latency": "10ms"}]},
     "server": {"resources": [{"url": "https://cdn.example.com/f-{n}.bin", "count": \(n), "size": "10KB", "etag": "e"}]},
     "app": {"sessions": [{"identifier": "Files", "kind": "background"}]},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Files", "count": \(n),
                   "url": "https://cdn.example.com/f-{n}.bin", "name": "f-{n}"}],
     "expect": [{"task": "f-*", "all": true, "state": "completed"}]}
    """
  }

  /// The blocked queue's sizes: tasks waiting ahead (the file's `count`s may add up to 100,000).
  public static let blockedSizes = [10_000, 98_000]
  /// Tasks queued behind the blocked ones, which start one after another.
  public static let blockedFollowers = 2_000

  /// N downloads queued first on a constrained Wi-Fi, half refusing constrained networks, half
  /// with a start date two days ahead, then `blockedFollowers` that may start: every start and
  /// finish of those runs a pass over their queue, and the N ahead must not be walked each time
  /// (issue 26 found that quadratic, first for the network's blocks, then for start dates).
  public static func blockedScenario(blocked n: Int) -> String {
    let refusing = n / 2
    let total = n + blockedFollowers
    return """
      {"name": "bench-scripted-blocked-\(n)", "seed": 1, "duration": "1d",
       "device": {"network": [{"at": "0s", "interface": "wifi", "down": "1Gbps", "up": "100Mbps", "latency": "10ms",
                               "constrained": true}]},
       "server": {"resources": [{"url": "https://cdn.example.com/f-{n}.bin", "count": \(total), "size": "10KB"}]},
       "app": {"sessions": [{"identifier": "Files", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "Files", "count": \(refusing),
                     "url": "https://cdn.example.com/f-{n}.bin", "name": "held-{n}",
                     "allowsConstrainedNetworkAccess": false},
                    {"at": "1s", "do": "download", "session": "Files", "count": \(n - refusing),
                     "firstNumber": \(refusing + 1), "url": "https://cdn.example.com/f-{n}.bin", "name": "later-{n}",
                     "earliestBegin": "+2d"},
                    {"at": "2s", "do": "download", "session": "Files", "count": \(blockedFollowers),
                     "firstNumber": \(n + 1), "url": "https://cdn.example.com/f-{n}.bin", "name": "go-{n}"}],
       "expect": [{"task": "go-*", "all": true, "state": "completed"},
                  {"task": "held-*", "all": true, "state": "waiting"},
                  {"task": "later-*", "all": true, "state": "waiting"}]}
      """
  }

  /// A user's mistake: every finished download starts two more, with no `times`.
  public static let runawayScenario = """
    {"name": "bench-scripted-runaway", "seed": 1, "duration": "30d",
     "device": {"network": [{"at": "0s", "interface": "wifi", "down": "1Gbps", "up": "100Mbps", "latency": "10ms"}]},
     "server": {"resources": [{"url": "https://cdn.example.com/a.bin", "size": "10KB", "etag": "e"}]},
     "app": {"sessions": [{"identifier": "Files", "kind": "background"}],
             "behavior": {"on": [{"event": "didFinishDownloading", "do": [
               {"do": "download", "session": "Files", "url": "https://cdn.example.com/a.bin", "name": "n-{n}-a"},
               {"do": "download", "session": "Files", "url": "https://cdn.example.com/a.bin", "name": "n-{n}-b"}]}]}},
     "timeline": [{"at": "0s", "do": "launch"},
                  {"at": "1s", "do": "download", "session": "Files", "url": "https://cdn.example.com/a.bin", "name": "root"}]}
    """

  /// Loads, runs and checks `scenario(tasks: n)` with the default budgets.
  public static func run(tasks n: Int) -> Outcome {
    outcome(play(scenario(tasks: n), file: "bench-scripted-\(n).json"), tasks: n)
  }

  /// Loads, runs and checks `blockedScenario(blocked: n)`; `tasks` counts the blocked ones.
  public static func runBlocked(blocked n: Int) -> Outcome {
    outcome(play(blockedScenario(blocked: n), file: "bench-scripted-blocked-\(n).json"), tasks: n)
  }

  /// Runs the runaway until a budget (the defaults unless a test gives smaller ones) stops it.
  public static func runaway(budget: RunBudget = .defaults) -> Outcome {
    let result = play(runawayScenario, file: "bench-scripted-runaway.json", budget: budget)
    let created = result.trace.events.reduce(0) { $0 + ($1.is(.taskCreated) ? 1 : 0) }
    return outcome(result, tasks: created)
  }

  private static func play(_ text: String, file: String, budget: RunBudget = .defaults) -> RunResult {
    // The texts are fixed and checked by the tests, so loading cannot fail.
    let scenario = try! ScenarioLoader.load(data: Array(text.utf8), file: file)
    return ScenarioRunner.run(scenario, budget: budget)
  }

  private static func outcome(_ result: RunResult, tasks: Int) -> Outcome {
    Outcome(
      tasks: tasks, events: result.engineEvents, traceEvents: result.trace.count, passed: result.passed,
      budgetExceeded: result.budgetExceeded?.limit)
  }
}
