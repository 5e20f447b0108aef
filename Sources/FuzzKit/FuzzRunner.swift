import ScenarioKit
import SimKernel
import TransferEngine

/// How a fuzzed scenario failed; two failures with the same signature are "the same bug" to the
/// minimiser.
public enum FailureSignature: Hashable, Sendable, CustomStringConvertible {
  /// An engine invariant broke.
  case invariant(Invariant)
  /// Two runs of the same scenario and seed gave different traces.
  case nondeterministic
  /// The scenario's JSON did not load back (a generator or writer bug).
  case invalidScenario
  /// The scenario could not be played (an app action while the app was not running...).
  case runError

  public var description: String {
    switch self {
    case .invariant(let invariant): return "invariant \(invariant.rawValue)"
    case .nondeterministic: return "nondeterminism"
    case .invalidScenario: return "invalid scenario"
    case .runError: return "run error"
    }
  }
}

/// One failing scenario: what broke, in words, and the scenario as a file.
public struct FuzzFailure: Sendable {
  public var signature: FailureSignature
  /// The violation, the first trace difference, the loader's problems or the run error.
  public var details: String
  public var scenario: Scenario
  /// The scenario as JSON; `bgsim run` on it reproduces the failure.
  public var json: String
}

/// Runs scenarios the way the fuzzer does: through their JSON (so what is written reproduces
/// what ran), with invariants on, twice, comparing the traces byte for byte.
public enum FuzzRunner {
  /// Writes `scenario` as JSON, loads it back and checks it; nil when it passes.
  public static func check(_ scenario: Scenario) -> FuzzFailure? {
    let json = ScenarioJSONWriter.write(scenario)
    let loaded: Scenario
    do {
      loaded = try ScenarioLoader.load(data: Array(json.utf8), file: scenario.file)
    } catch {
      return FuzzFailure(
        signature: .invalidScenario, details: error.lines.joined(separator: "\n"), scenario: scenario,
        json: json)
    }
    return checkLoaded(loaded, json: json)
  }

  /// Checks a scenario that was loaded from `json`.
  public static func checkLoaded(_ scenario: Scenario, json: String) -> FuzzFailure? {
    let first = ScenarioRunner.run(scenario, checksInvariants: true)
    func failure(_ signature: FailureSignature, _ details: String) -> FuzzFailure {
      FuzzFailure(signature: signature, details: details, scenario: scenario, json: json)
    }
    if let violation = first.invariantViolation {
      return failure(.invariant(violation.invariant), violation.description)
    }
    if let error = first.runError { return failure(.runError, error) }
    let second = ScenarioRunner.run(scenario, checksInvariants: true)
    guard let difference = traceDifference(first.trace, second.trace) else { return nil }
    return failure(.nondeterministic, difference)
  }

  /// Where two runs' traces first differ as written, for the report; nil when they do not.
  /// Compared event by event, without writing the traces out (that was a tenth of the fuzzer's
  /// time).
  static func traceDifference(_ first: TraceLog, _ second: TraceLog) -> String? {
    guard let difference = DeterminismCheck.firstDifference(first.events, second.events) else { return nil }
    return "traces differ at line \(difference.line):\n  first:  \(difference.expected ?? "(end of trace)")\n"
      + "  second: \(difference.actual ?? "(end of trace)")"
  }

  /// Generates the scenario of `seed` and checks it.
  public static func check(seed: UInt64) -> FuzzFailure? {
    check(ScenarioGenerator.scenario(seed: seed))
  }
}
