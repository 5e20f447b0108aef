import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// A run of known-blocked tasks stands while the groups of inputs its reasons read keep their
/// numbers (`WaitReason.inputGroups`, `AdmissionEpochs`): a change of another group (the app
/// suspended, for tasks waiting for a start date) skips the queue, even in a full pass.
@Suite("Rule: a known-blocked run stands while the inputs its reasons read are unchanged")
struct AdmissionInputGroupsTests {
  // MARK: The groups against the decision itself

  static let now = SimTime(.minutes(10))
  static let later = now + .minutes(1)

  /// Each group's inputs, in the values admission tells apart.
  static let locks = [false, true]
  static let appStates = AppState.allCases
  static let expiries = [SimTime.zero, later]
  static let networks = [
    NetworkState(interface: .wifi), NetworkState(interface: .cellular),
    NetworkState(interface: .wifi, constrained: true), NetworkState(interface: .none),
    NetworkState(interface: .wired, expensive: true),
  ]
  static let powers = [
    PowerState(charging: true), PowerState(charging: false, battery: 0.1),
    PowerState(charging: false, battery: 0.5), PowerState(charging: true, battery: 0.1),
    PowerState(charging: false, battery: 0.9, lowPowerMode: true),
  ]
  /// A floor between the levels above, so the battery moves the discretionary view both ways.
  static let policy = DiscretionaryPolicy(minimumBatteryLevel: 0.3)

  static func conditions(
    lock: Bool, app: AppState, expiry: SimTime, network: NetworkState, power: PowerState
  ) -> Admission.Conditions {
    Admission.Conditions(
      now: now, network: network, power: power, appState: app, rateLimiterExpiry: expiry,
      discretionary: policy, deviceLocked: lock)
  }

  static func view(_ conditions: Admission.Conditions) -> Admission.DiscretionaryView {
    Admission.DiscretionaryView(network: conditions.network, power: conditions.power, policy: policy)
  }

  /// Requests of every kind admission tells apart: background and default sessions, each
  /// interface allowance, first starts and later ones, start dates, tasks made in the
  /// background, discretionary ones small and large.
  static var requests: [Admission.Request] {
    var configurations: [SessionConfiguration] = [.background(withIdentifier: "S"), .default()]
    var noCellular = SessionConfiguration.background(withIdentifier: "S")
    noCellular.allowsCellularAccess = false
    var noExpensive = SessionConfiguration.background(withIdentifier: "S")
    noExpensive.allowsExpensiveNetworkAccess = false
    var noConstrained = SessionConfiguration.default()
    noConstrained.allowsConstrainedNetworkAccess = false
    noConstrained.waitsForConnectivity = true
    configurations += [noCellular, noExpensive, noConstrained]
    var all: [Admission.Request] = []
    for configuration in configurations {
      for firstStart in [true, false] {
        for earliest in [nil, later] {
          for createdInBackground in [false, true] {
            for (discretionary, size) in [
              (false, Int64(0)), (true, Int64(1_000)), (true, Int64(10_000_000_000)),
            ] {
              all.append(
                Admission.Request(
                  configuration: configuration, firstStart: firstStart, earliestBeginDate: earliest,
                  createdInBackground: createdInBackground, isDiscretionary: discretionary,
                  transferSize: size, running: 0, connectionLimit: 4))
            }
          }
        }
      }
    }
    return all
  }

  @Test("a lasting or timed block never changes with an input its groups leave out")
  func groupsCoverEveryInputThatChangesTheBlock() {
    var blocksSeen: Set<SimURLSessionTask.WaitReason.Kind> = []
    var checked = 0
    for request in Self.requests {
      for lock in Self.locks {
        for app in Self.appStates {
          for expiry in Self.expiries {
            for network in Self.networks {
              for power in Self.powers {
                let base = Self.conditions(
                  lock: lock, app: app, expiry: expiry, network: network, power: power)
                guard let reason = Admission.waitReason(request, in: base),
                  reason.lastsUntilInputsChange || Admission.timedBlockEnd(reason, request, in: base) != nil
                else { continue }
                blocksSeen.insert(reason.kind)
                let reads = reason.inputGroups
                var others: [Admission.Conditions] = []
                if !reads.contains(.lock) {
                  others += Self.locks.map {
                    Self.conditions(lock: $0, app: app, expiry: expiry, network: network, power: power)
                  }
                }
                if !reads.contains(.appState) {
                  others += Self.appStates.map {
                    Self.conditions(lock: lock, app: $0, expiry: expiry, network: network, power: power)
                  }
                }
                if !reads.contains(.rateLimiter) {
                  others += Self.expiries.map {
                    Self.conditions(lock: lock, app: app, expiry: $0, network: network, power: power)
                  }
                }
                // The network and the power, each varied when not read, together when neither is;
                // a block that reads the discretionary view keeps it.
                for otherNetwork in reads.contains(.network) ? [network] : Self.networks {
                  for otherPower in reads.contains(.power) ? [power] : Self.powers {
                    let other = Self.conditions(
                      lock: lock, app: app, expiry: expiry, network: otherNetwork, power: otherPower)
                    if reads.contains(.discretionary) && Self.view(other) != Self.view(base) { continue }
                    others.append(other)
                  }
                }
                for other in others {
                  checked += 1
                  let changed = Admission.waitReason(request, in: other)
                  #expect(
                    changed == reason,
                    "\(reason) reads \(reads.rawValue), yet \(other) gives \(String(describing: changed))")
                }
              }
            }
          }
        }
      }
    }
    // Every lasting and timed block was met, and with inputs outside its groups to vary.
    #expect(
      blocksSeen == [
        .deviceLocked, .earliestBegin, .rateLimiter, .discretionary, .connectivity, .cellularNotAllowed,
        .expensiveNotAllowed, .constrainedNotAllowed,
      ])
    #expect(checked > 1_000)
  }

  @Test("a discretionary block reads the network and the power only through its view")
  func discretionaryReadsItsView() {
    #expect(!SimURLSessionTask.WaitReason.discretionary(missing: ["wifi"]).inputGroups.contains(.network))
    #expect(!SimURLSessionTask.WaitReason.discretionary(missing: ["wifi"]).inputGroups.contains(.power))
    // Cellular, none, constrained Wi-Fi and expensive wired all fail `wifi`; Wi-Fi passes it.
    let views = Self.networks.map {
      Self.view(
        Self.conditions(lock: false, app: .suspended, expiry: .zero, network: $0, power: Self.powers[0]))
    }
    #expect(views.map(\.wifi) == [true, false, false, false, false])
    // Charging lifts the battery floor; below it without the charger the battery is low.
    let powerViews = Self.powers.map {
      Self.view(
        Self.conditions(lock: false, app: .suspended, expiry: .zero, network: Self.networks[0], power: $0))
    }
    #expect(powerViews.map(\.batteryLow) == [false, true, false, false, false])
    #expect(powerViews.map(\.lowPowerModeAvoided) == [false, false, false, false, true])
  }

  @Test("each input's change moves its own group's number and no other")
  func eachChangeMovesItsGroup() throws {
    typealias Change = KnownBlockedTests.Change
    // The test's queue starts on constrained Wi-Fi, unplugged: cellular keeps the discretionary
    // view (no Wi-Fi either way), the charger changes it.
    let expected: [Change: [(AdmissionEpochs) -> UInt64]] = [
      .network: [\.network], .power: [\.power, \.discretionary], .server: [\.tasks], .lock: [\.lock],
      .rateLimiterWake: [\.rateLimiter], .appState: [\.appState], .sessionAttached: [\.tasks],
      .waitingTaskSetter: [\.tasks],
    ]
    let groups: [(AdmissionEpochs) -> UInt64] = [
      \.lock, \.appState, \.rateLimiter, \.network, \.power, \.discretionary, \.tasks,
    ]
    for change in Change.allCases {
      let (engine, blocked, _) = KnownBlockedTests.queue(blocked: 2, ready: 0)
      KnownBlockedTests.enqueue(blocked, engine: engine)
      let before = engine.admissionEpochs()
      switch change {
      case .network: _ = engine.links.apply(NetworkState(interface: .cellular), now: .zero)
      case .power: engine.links.apply(PowerState(charging: true))
      case .server: engine.links.apply(ServerChange(at: .zero, url: AdmissionPassRuleTests.url, size: 10))
      case .lock: _ = engine.links.restart()
      case .rateLimiterWake: _ = engine.rateLimiter.wake(at: .zero)
      case .appState: _ = engine.lifecycle.userLaunch()
      case .sessionAttached: engine.daemon.sessionAttached()
      case .waitingTaskSetter: blocked[0].countOfBytesClientExpectsToReceive = 1_000
      }
      let after = engine.admissionEpochs()
      let own = try #require(expected[change])
      for group in own { #expect(group(after) == group(before) + 1, "\(change)") }
      let moved = groups.filter { $0(after) != $0(before) }.count
      #expect(moved == own.count, "\(change) moved \(moved) groups")
    }
  }

  // MARK: Full passes

  /// A full pass over `task`'s queue, as a condition change or the re-evaluation timer runs it.
  static func fullPass(_ task: SimURLSessionTask, engine: Engine) -> [Effect] {
    var effects = EffectBuffer()
    AdmissionPassRule.apply(
      key: engine.daemon.ensureQueue(for: task), full: true, engine: engine, into: &effects)
    return effects.effects
  }

  /// The numbers `task`'s queue recorded its known-blocked run with.
  static func recordedEpochs(_ task: SimURLSessionTask, engine: Engine) -> AdmissionEpochs {
    KnownBlockedTests.run(of: task, engine: engine).epochs
  }

  @Test("a full pass after a change start dates cannot feel skips them, asking only for the first date")
  func fullPassSkipsStartDates() {
    let (engine, deferred, _) = KnownBlockedTests.startDateQueue(deferred: 30, ready: 0)
    KnownBlockedTests.enqueue(deferred, engine: engine)
    #expect(KnownBlockedTests.knownBlocked(deferred[0], engine: engine) == 30)
    _ = engine.lifecycle.userLaunch()
    #expect(Self.fullPass(deferred[0], engine: engine) == [.requestReevaluation(at: SimTime(.seconds(100)))])
    _ = engine.links.apply(NetworkState(interface: .cellular), now: .zero)
    #expect(Self.fullPass(deferred[0], engine: engine) == [.requestReevaluation(at: SimTime(.seconds(100)))])
    // The lock comes before the start date: every task is decided again and waits for the unlock.
    _ = engine.links.restart()
    let effects = Self.fullPass(deferred[0], engine: engine)
    let traced = effects.filter {
      if case .trace(.taskDeferred, let fields) = $0 {
        fields.contains(TraceField("reason", .string("deviceLocked")))
      } else {
        false
      }
    }
    #expect(traced.count == 30)
  }

  @Test("a run that lost its earliest task still knows its next end: a full pass asks for that date only")
  func fullPassAfterARemoval() {
    let (engine, deferred, _) = KnownBlockedTests.startDateQueue(deferred: 5, ready: 0)
    KnownBlockedTests.enqueue(deferred, engine: engine)
    engine.daemon.removeFromQueue(deferred[0])
    // No timer for 100 s, the date no task waits for any more; none for each later date either.
    #expect(Self.fullPass(deferred[1], engine: engine) == [.requestReevaluation(at: SimTime(.seconds(110)))])
    engine.daemon.removeFromQueue(deferred[3])
    engine.daemon.removeFromQueue(deferred[1])
    #expect(Self.fullPass(deferred[2], engine: engine) == [.requestReevaluation(at: SimTime(.seconds(120)))])
  }

  @Test("a full pass skips discretionary tasks through network changes that keep them off Wi-Fi")
  func fullPassSkipsDiscretionaryOffWiFi() {
    let engine = AdmissionPassRuleTests.engine(limit: 4, online: false)
    _ = engine.links.apply(NetworkState(interface: .cellular), now: .zero)
    let waiting = AdmissionPassRuleTests.tasks(
      20, in: SessionConfiguration(identifier: "bg", kind: .background, isDiscretionary: true), engine: engine
    )
    KnownBlockedTests.enqueue(waiting, engine: engine)
    #expect(KnownBlockedTests.knownBlocked(waiting[0], engine: engine) == 20)
    let recorded = Self.recordedEpochs(waiting[0], engine: engine)
    // Cellular to none to expensive wired: still no Wi-Fi, nothing to decide. A skipped run
    // keeps the numbers it was recorded with; a walked one takes the new ones.
    for network in [NetworkState(interface: .none), NetworkState(interface: .wired, expensive: true)] {
      _ = engine.links.apply(network, now: .zero)
      #expect(Self.fullPass(waiting[0], engine: engine) == [])
      #expect(Self.recordedEpochs(waiting[0], engine: engine) == recorded)
    }
    #expect(engine.admissionEpochs().network != recorded.network)
    // The charger moves the view (and a large transfer's `charging`): every task is decided
    // again and still waits for Wi-Fi, so nothing is traced.
    engine.links.apply(PowerState(charging: true))
    #expect(Self.fullPass(waiting[0], engine: engine) == [])
    #expect(Self.recordedEpochs(waiting[0], engine: engine) == engine.admissionEpochs())
    #expect(KnownBlockedTests.knownBlocked(waiting[0], engine: engine) == 20)
    // Wi-Fi lifts every block: the first four start.
    _ = engine.links.apply(NetworkState(interface: .wifi), now: .zero)
    let started = Self.fullPass(waiting[0], engine: engine).filter {
      if case .beginAttempt = $0 { true } else { false }
    }
    #expect(started == waiting.prefix(4).map { .beginAttempt(uid: $0.uid) })
  }

  @Test("a full pass still decides tasks whose blocks read the changed input")
  func fullPassDecidesWhatTheChangeReaches() {
    // Tasks refusing a constrained network: the network ending Low Data Mode lets them start.
    let (engine, blocked, _) = KnownBlockedTests.queue(blocked: 3, ready: 0)
    KnownBlockedTests.enqueue(blocked, engine: engine)
    #expect(KnownBlockedTests.knownBlocked(blocked[0], engine: engine) == 3)
    _ = engine.links.apply(NetworkState(interface: .wifi), now: .zero)
    let effects = Self.fullPass(blocked[0], engine: engine)
    #expect(effects.contains(.beginAttempt(uid: blocked[0].uid)))
  }
}
