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
    PowerState(charging: false, battery: 0.9, lowPowerMode: true),
  ]

  static func conditions(
    lock: Bool, app: AppState, expiry: SimTime, network: NetworkState, power: PowerState
  ) -> Admission.Conditions {
    Admission.Conditions(
      now: now, network: network, power: power, appState: app, rateLimiterExpiry: expiry,
      discretionary: DiscretionaryPolicy(), deviceLocked: lock)
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
                if !reads.contains(.network) {
                  others += Self.networks.map {
                    Self.conditions(lock: lock, app: app, expiry: expiry, network: $0, power: power)
                  }
                }
                if !reads.contains(.power) {
                  others += Self.powers.map {
                    Self.conditions(lock: lock, app: app, expiry: expiry, network: network, power: $0)
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

  @Test("each input's change moves its own group's number and no other")
  func eachChangeMovesItsGroup() throws {
    typealias Change = KnownBlockedTests.Change
    let expected: [Change: (AdmissionEpochs) -> UInt64] = [
      .network: \.network, .power: \.power, .server: \.tasks, .lock: \.lock, .rateLimiterWake: \.rateLimiter,
      .appState: \.appState, .sessionAttached: \.tasks, .waitingTaskSetter: \.tasks,
    ]
    let groups: [(AdmissionEpochs) -> UInt64] = [
      \.lock, \.appState, \.rateLimiter, \.network, \.power, \.tasks,
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
      #expect(own(after) == own(before) + 1, "\(change)")
      let moved = groups.filter { $0(after) != $0(before) }.count
      #expect(moved == 1, "\(change) moved \(moved) groups")
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

  @Test(
    "a full pass walks a run that lost its earliest task, so no timer is asked for a date no task waits for")
  func fullPassAfterARemovalWalks() {
    let (engine, deferred, _) = KnownBlockedTests.startDateQueue(deferred: 5, ready: 0)
    KnownBlockedTests.enqueue(deferred, engine: engine)
    engine.daemon.removeFromQueue(deferred[0])
    let asked = Self.fullPass(deferred[1], engine: engine).compactMap {
      if case .requestReevaluation(let at) = $0 { at } else { nil }
    }
    #expect(asked == [110, 120, 130, 140].map { SimTime(.seconds($0)) })
    // Walked, the run is exact again: the next full pass skips it.
    #expect(Self.fullPass(deferred[1], engine: engine) == [.requestReevaluation(at: SimTime(.seconds(110)))])
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
