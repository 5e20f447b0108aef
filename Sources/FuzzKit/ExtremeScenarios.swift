import ScenarioKit
import SimKernel
import TransferEngine

/// `bgsim fuzz --extreme`: valid scenarios at the edges of what the format allows (sizes of
/// 0 and 1 TiB, rates of 0 and 1 Tbps, latencies of 0 and years, reaction loops and fan-out,
/// redirect loops, dense random sections, big counts, extreme policies). Each must load, and its
/// run must end within its budgets without a trap or a broken invariant: a budget stopping a
/// runaway is the expected outcome, anything else is a failure.
public enum ExtremeScenarios {
  /// The budgets of an extreme run: small, so 2,000 seeds take seconds; a runaway meets them fast.
  /// Invariants are checked after every event, over every task, hence the low task budget.
  public static let budget = RunBudget(
    maxEvents: 5_000, maxTasks: 500, maxEventsAtOneInstant: 2_000, maxTraceEvents: 10_000)

  /// The scenario of `seed` as JSON text (so the loader's limits are part of what is checked).
  public static func json(seed: UInt64) -> String {
    var g = Picker(SeededGenerator(seed: seed ^ 0xE7E7_E7E7_0000_0000))
    let sizes = ["0", "1", "1099511627776", "\"1024GiB\"", "\"1KB\"", "\"300MB\"", "\"1GiB\""]
    let rates = ["0bps", "1bps", "1000Gbps", "1000000000000bps", "56kbps", "50Mbps", "1Gbps"]
    let latencies = ["0s", "1ns", "1ms", "30ms", "10m", "3650d"]
    let durations = ["1ms", "1m", "1d", "30d", "3650d"]
    let duration = g.pick(durations)
    var resources: [String] = []
    // Plain resources, a redirect loop, a self-redirect, a long chain and a numbered group.
    resources.append(#"{"url": "https://a.example/plain", "size": \#(g.pick(sizes)), "etag": "e"}"#)
    resources.append(#"{"url": "https://a.example/r1", "size": 1, "redirectTo": "https://a.example/r2"}"#)
    resources.append(#"{"url": "https://a.example/r2", "size": 1, "redirectTo": "https://a.example/r1"}"#)
    resources.append(#"{"url": "https://a.example/self", "size": 1, "redirectTo": "https://a.example/self"}"#)
    let chain = g.int(1...20)
    for i in 0..<chain {
      resources.append(
        #"{"url": "https://b.example/c\#(i)", "size": 1, "redirectTo": "https://b.example/c\#(i + 1)"}"#)
    }
    resources.append(#"{"url": "https://b.example/c\#(chain)", "size": \#(g.pick(sizes))}"#)
    // The largest counts cost about a second to load and run: one seed in a hundred has them.
    let numbered = seed % 100 == 0 ? 100_000 : g.pick([1, 2, 100, 1000])
    resources.append(
      #"{"url": "https://n.example/f{n}", "count": \#(numbered), "size": \#(g.pick(sizes)), "acceptsRanges": \#(g.bool())}"#
    )
    let urls = [
      "https://a.example/plain", "https://a.example/r1", "https://a.example/self", "https://b.example/c0",
      "https://n.example/f1",
    ]
    let upload = #"{"url": "https://a.example/up", "method": "POST", "responseBody": \#(g.pick(sizes))}"#
    resources.append(upload)

    var faults: [String] = []
    if g.bool() {
      faults.append(
        #"{"at": "\#(g.pick(["0s", "1s", "1ms"]))", "url": "https://a.example/plain", "kind": "dropConnection", "times": \#(g.pick([1, 1_000_000]))}"#
      )
    }
    if g.bool() {
      faults.append(
        #"{"from": "0s", "to": "\#(g.pick(["1ms", "3650d"]))", "host": "a.example", "kind": "status", "status": \#(g.pick([500, 503, 429]))}"#
      )
    }
    if g.bool() {
      faults.append(
        #"{"from": "0s", "to": "\#(g.pick(["1ms", "1h", "3650d"]))", "host": "b.example", "kind": "stall"}"#)
    }

    let network =
      #"{"at": "0s", "interface": "\#(g.pick(["wifi", "cellular", "wired"]))", "down": "\#(g.pick(rates))", "up": "\#(g.pick(rates))", "latency": "\#(g.pick(latencies))"}"#
    let sessionKind = g.pick(["background", "default"])
    let timeout = g.pick(["1ns", "1ms", "60s", "3650d"])
    let session =
      #"{"identifier": "S", "kind": "\#(sessionKind)", "discretionary": \#(g.bool()), "timeoutForRequest": "\#(timeout)", "timeoutForResource": "\#(g.pick(["1ms", "7d", "3650d"]))", "httpMaximumConnectionsPerHost": \#(g.pick([1, 6, 1000]))}"#

    var reactions: [String] = []
    if g.bool() {
      // A loop: every finished download starts another (bounded only by the budgets).
      let times = g.bool() ? "" : #", "times": \#(g.pick([1, 1000, 1_000_000]))"#
      reactions.append(
        #"{"event": "didFinishDownloading"\#(times), "do": [{"do": "download", "session": "S", "url": "\#(g.pick(urls))", "name": "loop-{n}"}]}"#
      )
    }
    if g.bool() {
      // Fan-out: every completion starts three more.
      let actions = (0..<3).map { k in
        #"{"do": "download", "session": "S", "url": "\#(g.pick(urls))", "name": "fan\#(k)-{n}"}"#
      }
      reactions.append(#"{"event": "didComplete", "do": [\#(actions.joined(separator: ", "))]}"#)
    }
    if g.bool() {
      reactions.append(#"{"event": "handleEvents", "do": [{"do": "getAllTasks", "session": "S"}]}"#)
    }
    let behavior = reactions.isEmpty ? "" : #", "behavior": {"on": [\#(reactions.joined(separator: ", "))]}"#

    var timeline = [#"{"at": "0s", "do": "launch"}"#]
    let count = seed % 100 == 50 ? 100_000 : g.pick([1, 2, 100, 1000])
    let name = count > 1 ? "t-{n}" : "t"
    let countField = count > 1 ? #", "count": \#(count)"# : ""
    timeline.append(
      #"{"at": "0s", "do": "download", "session": "S", "url": "\#(g.pick(urls))", "name": "\#(name)"\#(countField)}"#
    )
    timeline.append(
      #"{"at": "0s", "do": "download", "session": "S", "url": "https://a.example/r1", "name": "redirected"}"#)
    timeline.append(
      #"{"at": "0s", "do": "upload", "session": "S", "url": "https://a.example/up", "name": "up", "from": "data", "size": \#(g.pick(sizes))}"#
    )
    if g.bool() { timeline.append(#"{"at": "0s", "do": "background"}"#) }

    var random = ""
    if g.bool() {
      let period = g.pick(["1ms", "1s", #"{"exponential": "1ms"}"#, #"{"uniform": ["0s", "1ms"]}"#])
      let quoted = period.hasPrefix("{") ? period : "\"\(period)\""
      random =
        #", "random": {"network": {"on": {"interface": "wifi", "down": "\#(g.pick(rates))"}, "off": {"interface": "none"}, "onFor": \#(quoted), "offFor": \#(quoted)}, "power": {"on": {"charging": true}, "off": {"charging": false}, "onFor": \#(quoted), "offFor": \#(quoted)}, "terminations": {"every": \#(quoted)}}"#
    }
    let maxDelay = g.pick(["null", "\"0s\"", "\"3650d\""])
    let policy =
      #"{"rateLimiter": {"initialDelay": "\#(g.pick(["0s", "3650d"]))", "firstDelay": "\#(g.pick(["0s", "1ns", "3650d"]))", "growth": \#(g.pick(["0", "1000", "2.0"])), "maxDelay": \#(maxDelay)}, "backgroundRunTime": "\#(g.pick(["0s", "3650d"]))", "completionHandlerTimeout": "\#(g.pick(["0s", "3650d"]))", "maxConnectionsPerHost": \#(g.pick([1, 1000])), "retry": {"backoff": "\#(g.pick(["0s", "3650d"]))", "maxBackoff": "\#(g.pick(["0s", "3650d"]))"}}"#

    return """
      {"name": "extreme-\(seed)", "seed": \(seed), "duration": "\(duration)",
       "device": {"network": [\(network)], "power": [{"at": "0s", "charging": \(g.bool()), "battery": \(g.pick(["0", "1", "0.5"])), "lowPowerMode": \(g.bool())}]},
       "server": {"resources": [\(resources.joined(separator: ",\n  "))],
                  "faults": [\(faults.joined(separator: ", "))]},
       "policy": \(policy),
       "app": {"sessions": [\(session)]\(behavior)},
       "timeline": [\(timeline.joined(separator: ",\n  "))]\(random)}

      """
  }

  /// How one extreme seed ended.
  public enum Outcome: Sendable {
    /// Ran to its end.
    case clean
    /// A budget stopped it, as it should stop a runaway.
    case budgetStopped
    case failed(FuzzFailure)
  }

  /// Loads and runs the scenario of `seed` twice with invariants on and the extreme budgets.
  public static func outcome(seed: UInt64) -> Outcome {
    let text = json(seed: seed)
    let file = "extreme-\(seed).json"
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(data: Array(text.utf8), file: file)
    } catch {
      return .failed(
        FuzzFailure(
          signature: .invalidScenario, details: error.lines.joined(separator: "\n"),
          scenario: Scenario(file: file, name: "extreme-\(seed)"), json: text))
    }
    func failure(_ signature: FailureSignature, _ details: String) -> Outcome {
      .failed(FuzzFailure(signature: signature, details: details, scenario: scenario, json: text))
    }
    let first = ScenarioRunner.run(scenario, checksInvariants: true, budget: budget)
    if let violation = first.invariantViolation {
      return failure(.invariant(violation.invariant), violation.description)
    }
    if let error = first.runError, first.budgetExceeded == nil { return failure(.runError, error) }
    let second = ScenarioRunner.run(scenario, checksInvariants: true, budget: budget)
    if let difference = FuzzRunner.traceDifference(first.trace, second.trace) {
      return failure(.nondeterministic, difference)
    }
    return first.budgetExceeded == nil ? .clean : .budgetStopped
  }
}

/// Picks from lists with the seeded generator.
struct Picker {
  var random: SeededGenerator
  init(_ random: SeededGenerator) { self.random = random }
  mutating func pick<T>(_ items: [T]) -> T { items[random.uniform(0...(items.count - 1))] }
  mutating func int(_ range: ClosedRange<Int>) -> Int { random.uniform(range) }
  mutating func bool() -> Bool { random.nextUnit() < 0.5 }
}
