import Foundation
import SimKernel
import SweepKit
import TransferEngine

/// An exploration's settings beside its subject.
public struct ExplorationPlan: Sendable {
  /// The kinds of fault to inject, and `userReturnsAfter`.
  public var faults: FaultSet
  /// Each seed draws a list of random faults (the kill points are enumerated, not drawn).
  public var seeds: [UInt64]
  /// Worker threads; the report is the same whatever their number.
  public var jobs: Int
  /// This shard's part of the kill points and seeds (`BGSIM_EXPLORE_SHARD=K/N`); nil for all.
  public var shard: Shard?
  /// The seed every run's world is made with.
  public var worldSeed: UInt64

  /// A plan; `jobs` below 1 counts as 1.
  public init(faults: FaultSet = .all, seeds: [UInt64], jobs: Int, shard: Shard? = nil, worldSeed: UInt64) {
    self.faults = faults
    self.seeds = seeds
    self.jobs = max(1, jobs)
    self.shard = shard
    self.worldSeed = worldSeed
  }
}

/// Part `index` (1-based) of `count`: runs whose position modulo `count` is `index - 1`.
public struct Shard: Hashable, Sendable {
  /// K, from 1.
  public var index: Int
  /// N, the number of shards.
  public var count: Int

  /// Reads `K/N` with 1 <= K <= N; nil otherwise.
  public init?(_ text: String) {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
      return nil
    }
    index = k
    count = n
  }

  func includes(_ position: Int) -> Bool { position % count == index - 1 }
}

/// Runs an exploration: the baseline, the kill points and the seeds' random faults (each run
/// twice), the oracles, shrinking and the findings.
public enum Explorer {
  /// The app's own check of an outcome: a message is a finding named `property`.
  public typealias Property = @Sendable (ExplorationOutcome) -> String?

  /// Explores `subject` as `plan` says and reports the findings (exploring.md).
  public static func explore(_ subject: ExplorationSubject, plan: ExplorationPlan, property: Property?)
    -> ExplorationReport
  {
    let returns = plan.faults.userReturnsAfter
    let baseline = ExplorationRun.play(
      subject, faults: [], seed: plan.worldSeed, userReturnsAfter: returns, property: property)
    var raw = baselineFindings(baseline, lints: subject.reportsBaselineLints)
    // The kill points are run as terminations only when terminations are explored; they anchor the
    // random process-ending faults either way.
    let points = KillPoints.enumerate(subject, seed: plan.worldSeed, baseline: baseline.outcome.trace)
    if let difference = firstDifference(baseline.outcome.trace, points.trace) {
      raw.append(
        Raw(
          rule: "nondeterministic", signature: "nondeterministic",
          message: "the baseline, played twice: " + difference, faults: [], order: -1, run: baseline))
    }
    var plans: [[Fault]] = plan.faults.contains(.systemTermination) ? points.faults.map { [$0] } : []
    plans += plan.seeds.map {
      RandomFaults.draw(seed: $0, faults: plan.faults, from: points.faults, duration: subject.duration)
    }
    let positions = plans.indices.filter { plan.shard?.includes($0) ?? true }
    let judged = ParallelRunner.map(positions, jobs: plan.jobs) { position -> [Raw] in
      judge(
        subject, plans[position], seed: plan.worldSeed, returns: returns, baseline: baseline,
        property: property, order: position
      ).raws
    }
    raw += judged.flatMap { $0 }
    // One finding per rule and difference: the first run that reached it, shrunk, and how many did.
    // Each finding is shrunk on its own, so the findings are shrunk side by side on the workers.
    // Signatures told apart by their bytes: they quote names, and a name in another Unicode form
    // is another task or session.
    var order: [WrittenKey] = []
    var grouped: [WrittenKey: (first: Raw, count: Int)] = [:]
    for item in raw {
      let signature = WrittenKey(item.signature)
      if let existing = grouped[signature] {
        grouped[signature] = (existing.first, existing.count + 1)
      } else {
        grouped[signature] = (item, 1)
        order.append(signature)
      }
    }
    let findings = ParallelRunner.map(order, jobs: plan.jobs) { signature -> Finding in
      let (first, count) = grouped[signature]!
      // The play of the shrunk faults (the first run's when none was removed) gives the finding's
      // faults, trace and message: it is not played again.
      let shrunk = shrink(
        first, subject, seed: plan.worldSeed, returns: returns, baseline: baseline, property: property)
      let rerun = shrunk ?? first.run
      let message =
        verdicts(rerun, baseline, property: property != nil).first { $0.rule == first.rule }?.message
        ?? first.message
      var finding = Finding(
        rule: first.rule, message: message, faults: rerun.applied, seed: plan.worldSeed,
        trace: rerun.outcome.trace.events,
        replayScenario: ReplayScenario.write(
          world: baseline.world, duration: subject.duration + subject.settle, seed: plan.worldSeed,
          faults: rerun.applied, rule: first.rule, baseline: baseline.outcome.trace, returns: returns,
          base: subject.scenario),
        reachedBy: count, origin: FindingOrigin(signature: signature.text, firstRun: first.order))
      finding.bytesWastedInCreationOrder = rerun.bytesWastedInCreationOrder
      return finding
    }
    let killPointsRun = plan.faults.contains(.systemTermination) ? points.faults.count : 0
    return ExplorationReport(
      findings: findings, killPoints: points.candidates, killPointsRun: killPointsRun, runs: positions.count)
  }

  /// What the run without faults already breaks: the property, and, when `lints`, each lint it
  /// traced (a lint is a bug of the app whatever the faults: the file it did not move, the session
  /// it did not recreate after the timeline's own termination). Each is a finding without faults.
  static func baselineFindings(_ baseline: RunRecord, lints: Bool) -> [Raw] {
    var raw: [Raw] = []
    if let message = baseline.propertyMessage {
      raw.append(
        Raw(
          rule: "property", signature: "property " + message, message: message, faults: [], order: -1,
          run: baseline))
    }
    for (rule, message) in baseline.lints.sorted(by: { $0.key < $1.key }) where lints {
      let at = baseline.outcome.trace.events.first {
        $0.kind == TraceKind.lint.rawValue && $0["rule"] == .string(rule)
      }
      raw.append(
        Raw(
          rule: rule, signature: "lint " + rule,
          message: "the run without faults traced it" + (at.map { " at \($0.time)" } ?? "") + ": " + message,
          faults: [], order: -1, run: baseline))
    }
    return raw
  }

  /// Plays one run (twice: a second play whose trace differs is a nondeterminism) and judges it.
  /// Without `checksDeterminism` the run is played once (shrinking a rule other than
  /// `nondeterministic` asks only whether that rule still breaks).
  static func judge(
    _ subject: ExplorationSubject, _ faults: [Fault], seed: UInt64, returns: SimDuration, baseline: RunRecord,
    property: Property?, order: Int, checksDeterminism: Bool = true
  ) -> (raws: [Raw], run: RunRecord) {
    let first = ExplorationRun.play(
      subject, faults: faults, seed: seed, userReturnsAfter: returns, property: property)
    var result = verdicts(first, baseline, property: property != nil).map {
      Raw(
        rule: $0.rule, signature: $0.signature, message: $0.message, faults: first.applied, order: order,
        run: first)
    }
    guard checksDeterminism else { return (result, first) }
    // The second play is compared by its trace alone: its files are not read.
    let second = ExplorationRun.play(
      subject, faults: faults, seed: seed, userReturnsAfter: returns, property: nil, readsFiles: false)
    if let difference = firstDifference(first.outcome.trace, second.outcome.trace) {
      result.append(
        Raw(
          rule: "nondeterministic", signature: "nondeterministic",
          message: "the same faults, played twice: " + difference, faults: first.applied, order: order,
          run: first))
    }
    return (result, first)
  }

  struct Verdict {
    var rule: String
    var signature: String
    var message: String
  }

  /// The oracles over one run: the outcome against the baseline's (the rule named by the faults
  /// that ended or cut the app), each lint the baseline did not trace, the property.
  static func verdicts(_ run: RunRecord, _ baseline: RunRecord, property: Bool) -> [Verdict] {
    var verdicts: [Verdict] = []
    let differences = run.outcome.differences(from: baseline.outcome)
    if !differences.isEmpty, let rule = outcomeRule(run.applied) {
      let doing = zip(run.applied, run.context).map { "at the \($0.0.description) \($0.1)" }
      let message =
        "what the user sees differs from the run without faults:\n  " + differences.joined(separator: "\n  ")
        + "\n" + doing.joined(separator: "\n")
      verdicts.append(
        Verdict(rule: rule, signature: rule + "\n" + differences.joined(separator: "\n"), message: message))
    }
    for (rule, message) in run.lints.sorted(by: { $0.key < $1.key }) where baseline.lints[rule] == nil {
      verdicts.append(
        Verdict(
          rule: rule, signature: "lint " + rule,
          message: "a lint the run without faults did not trace: " + message))
    }
    if property, let message = run.propertyMessage, baseline.propertyMessage == nil {
      verdicts.append(Verdict(rule: "property", signature: "property " + message, message: message))
    }
    return verdicts
  }

  /// The rule an outcome difference breaks, named by the strongest fault that took effect.
  static func outcomeRule(_ faults: [Fault]) -> String? {
    if faults.contains(where: { $0.kind == .forceQuit }) { return "forceQuitNotRecovered" }
    if faults.contains(where: { $0.kind == .reboot }) { return "rebootNotRecovered" }
    if faults.contains(where: { $0.kind == .terminate }) { return "terminationNotTransparent" }
    if !faults.isEmpty { return "networkFaultNotRecovered" }
    return nil
  }

  /// The play of the fewest of the first run's faults that still break its rule (delta
  /// debugging); nil when no fault could be removed (the first run's play stands).
  static func shrink(
    _ raw: Raw, _ subject: ExplorationSubject, seed: UInt64, returns: SimDuration, baseline: RunRecord,
    property: Property?
  ) -> RunRecord? {
    guard raw.faults.count > 1 else { return nil }
    // The list `minimize` keeps is the last one `fails` held for: keep that play.
    var kept: RunRecord?
    _ = Shrinker.minimize(raw.faults) { subset in
      let (raws, run) = judge(
        subject, subset, seed: seed, returns: returns, baseline: baseline, property: property, order: 0,
        checksDeterminism: raw.rule == "nondeterministic")
      guard raws.contains(where: { $0.rule == raw.rule }) else { return false }
      kept = run
      return true
    }
    return kept
  }

  /// The first line where two traces differ, both sides, or nil when they are the same.
  static func firstDifference(_ a: TraceLog, _ b: TraceLog) -> String? {
    let x = a.events
    let y = b.events
    for i in 0..<max(x.count, y.count) {
      let left = i < x.count ? x[i] : nil
      let right = i < y.count ? y[i] : nil
      if left != right {
        return
          "trace line \(i + 1) differs: first \(left?.jsonLine ?? "(the trace ended)"), then \(right?.jsonLine ?? "(the trace ended)")"
      }
    }
    return nil
  }

  /// One run's verdict, before grouping.
  struct Raw {
    var rule: String
    var signature: String
    var message: String
    var faults: [Fault]
    var order: Int
    /// The play that reached it (the baseline's for a finding without faults).
    var run: RunRecord
  }
}

extension Explorer {
  /// Plays one run with `faults` (made with `seed`) beside a baseline, and reports what the
  /// oracles find in it: a finding's printed faults and seed turned into a regression test.
  public static func replay(
    _ subject: ExplorationSubject, faults: [Fault], seed: UInt64, faultSet: FaultSet = .all,
    property: Property?
  ) -> ExplorationReport {
    let returns = faultSet.userReturnsAfter
    let baseline = ExplorationRun.play(
      subject, faults: [], seed: seed, userReturnsAfter: returns, property: property)
    let (judged, run) = judge(
      subject, faults, seed: seed, returns: returns, baseline: baseline, property: property, order: 0)
    let raws = baselineFindings(baseline, lints: subject.reportsBaselineLints) + judged
    let findings = raws.map { raw in
      var finding = Finding(
        rule: raw.rule, message: raw.message, faults: raw.faults, seed: seed, trace: run.outcome.trace.events,
        replayScenario: ReplayScenario.write(
          world: baseline.world, duration: subject.duration + subject.settle, seed: seed, faults: raw.faults,
          rule: raw.rule, baseline: baseline.outcome.trace, returns: returns, base: subject.scenario),
        reachedBy: 1)
      finding.bytesWastedInCreationOrder = run.bytesWastedInCreationOrder
      return finding
    }
    return ExplorationReport(findings: findings, killPoints: 0, killPointsRun: 0, runs: 1)
  }
}
