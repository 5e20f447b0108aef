import Foundation
import ScenarioKit
import SimKernel
import TransferEngine

/// How an exploration builds and observes the world it explores: made by `BgsimTesting` for a
/// Swift app and by a scripted scenario's explorer, so the exploration itself needs neither.
///
/// The closures are called from the exploration's worker threads, each on its own simulation.
public struct ExplorationSubject: @unchecked Sendable {
  /// A fresh simulation of the world with the app installed and the user's script scheduled.
  public var makeWorld: (_ seed: UInt64) -> Simulation
  /// Where the app's container is, nil when it has none.
  public var container: (Simulation) -> URL?
  /// The app's own account of what the user sees, nil when it keeps none or is not running.
  public var account: (Simulation) -> String?
  /// When the live process's app timers are due (empty when the subject has none).
  public var pendingTimers: (Simulation) -> [SimTime]
  /// More of what the app could observe, beside its container and timers, for telling kill
  /// points apart (a scripted app keeps no files: what it was told so far).
  public var observableExtra: (Simulation) -> String = { _ in "" }
  /// For a scenario's world, the scenario: a replay scenario is this one (its app, its timeline)
  /// with the faults added. Nil for a Swift world: the user's launches and leaves come from the trace.
  public var scenario: Scenario?
  /// Whether a lint the run without faults traced is a finding (without faults). A scenario's
  /// timeline may show its bug itself (`bgsim explore` on a lint scenario); a Swift test records
  /// its baseline's lints with `expectNoIssues`, and its exploration reports the lints the faults
  /// brought.
  public var reportsBaselineLints = false
  /// The end of the world, after which the user opens the app and the world settles.
  public var duration: SimDuration
  /// How long the world runs after the user's last launch before the outcome is read.
  public var settle: SimDuration

  /// A subject; `pendingTimers` defaults to none (an app without timers).
  public init(
    duration: SimDuration, settle: SimDuration, makeWorld: @escaping (_ seed: UInt64) -> Simulation,
    container: @escaping (Simulation) -> URL?, account: @escaping (Simulation) -> String?,
    pendingTimers: @escaping (Simulation) -> [SimTime] = { _ in [] }
  ) {
    self.pendingTimers = pendingTimers
    self.duration = duration
    self.settle = settle
    self.makeWorld = makeWorld
    self.container = container
    self.account = account
  }

  /// The folders of the container whose files are the outcome (not `Caches` or `tmp`).
  public static let outcomeFolders = ["Documents", "Library/Application Support"]

  /// The outcome files now, by path relative to the container.
  func outcomeFiles(_ sim: Simulation) -> [String: String] {
    guard let container = container(sim) else { return [:] }
    var files: [String: String] = [:]
    for folder in Self.outcomeFolders {
      let url = container.appendingPathComponent(folder, isDirectory: true)
      for (path, digest) in ContentDigest.files(under: url, prefix: folder) { files[path] = digest }
    }
    return files
  }

  /// Everything the app could observe now: every file of its container and its pending timers
  /// (as delays from now), in one text; two points with the same text are the same for a kill.
  func observableState(_ sim: Simulation, timers: [SimTime]) -> String {
    var text =
      observableExtra(sim) + "\ntimers "
      + timers.map { $0 <= sim.now ? "due" : ($0 - sim.now).formatted }.joined(separator: ",")
    if let container = container(sim) {
      for (path, digest) in ContentDigest.files(under: container) {
        text += "\n\(path) \(digest)"
      }
    }
    return text
  }
}
