import SimKernel
import Testing

@testable import TransferEngine

/// Admission alone: each start rule of behavior.md decided from a snapshot, no `Simulation`.
@Suite("Admission")
struct AdmissionTests {
  static let now = SimTime(.minutes(10))
  static let wifi = NetworkState(interface: .wifi)
  static let cellular = NetworkState(interface: .cellular)

  static func conditions(
    network: NetworkState = wifi, power: PowerState = PowerState(charging: true),
    app: AppState = .background, rateLimiterExpiry: SimTime = .zero,
    discretionary: DiscretionaryPolicy = DiscretionaryPolicy()
  ) -> Admission.Conditions {
    Admission.Conditions(
      now: now, network: network, power: power, appState: app, rateLimiterExpiry: rateLimiterExpiry,
      discretionary: discretionary)
  }

  static func request(
    _ configuration: SessionConfiguration = .background(withIdentifier: "S"), firstStart: Bool = true,
    earliestBegin: SimTime? = nil, createdInBackground: Bool = false, discretionary: Bool = false,
    running: Int = 0, size: Int64 = 5_000_000
  ) -> Admission.Request {
    Admission.Request(
      configuration: configuration, firstStart: firstStart, earliestBeginDate: earliestBegin,
      createdInBackground: createdInBackground, isDiscretionary: discretionary, transferSize: size,
      running: running, connectionLimit: 4)
  }

  static var noCellular: SessionConfiguration {
    var c = SessionConfiguration.background(withIdentifier: "S")
    c.allowsCellularAccess = false
    return c
  }

  static var noExpensive: SessionConfiguration {
    var c = SessionConfiguration.background(withIdentifier: "S")
    c.allowsExpensiveNetworkAccess = false
    return c
  }

  static var noConstrained: SessionConfiguration {
    var c = SessionConfiguration.background(withIdentifier: "S")
    c.allowsConstrainedNetworkAccess = false
    return c
  }

  static let later = now + .minutes(1)

  /// (what, request, conditions, expected reason or nil for "starts now").
  static let cases: [(String, Admission.Request, Admission.Conditions, SimURLSessionTask.WaitReason?)] = [
    ("all conditions hold", request(), conditions(), nil),
    ("before earliestBeginDate", request(earliestBegin: later), conditions(), .earliestBegin),
    ("at earliestBeginDate", request(earliestBegin: now), conditions(), nil),
    (
      "created in the background before the limiter's expiry", request(createdInBackground: true),
      conditions(rateLimiterExpiry: later), .rateLimiter
    ),
    ("created in the foreground ignores the limiter", request(), conditions(rateLimiterExpiry: later), nil),
    (
      "a small discretionary transfer on battery starts", request(discretionary: true),
      conditions(power: PowerState()), nil
    ),
    (
      "a large discretionary transfer on battery waits for power",
      request(discretionary: true, size: 50_000_000), conditions(power: PowerState()),
      .discretionary(missing: ["charging"])
    ),
    (
      "a large discretionary transfer on cellular waits for Wi-Fi and power, each named once",
      request(discretionary: true, size: 1 << 40), conditions(network: cellular, power: PowerState()),
      .discretionary(missing: ["wifi", "charging"])
    ),
    (
      "a small discretionary transfer on cellular waits for Wi-Fi",
      request(discretionary: true, size: 0), conditions(network: cellular, power: PowerState()),
      .discretionary(missing: ["wifi"])
    ),
    (
      "the strict reading holds every discretionary transfer for power",
      request(discretionary: true, size: 1),
      conditions(power: PowerState(), discretionary: DiscretionaryPolicy(requires: [.wifi, .charging])),
      .discretionary(missing: ["charging"])
    ),
    (
      "below the minimum battery level on battery",
      request(discretionary: true),
      conditions(
        power: PowerState(battery: 0.1), discretionary: DiscretionaryPolicy(minimumBatteryLevel: 0.2)),
      .discretionary(missing: ["batteryLevel"])
    ),
    (
      "below the minimum battery level but charging",
      request(discretionary: true),
      conditions(
        power: PowerState(charging: true, battery: 0.1),
        discretionary: DiscretionaryPolicy(minimumBatteryLevel: 0.2)),
      nil
    ),
    (
      "a non-discretionary transfer ignores size and power", request(size: 1 << 40),
      conditions(power: PowerState()),
      nil
    ),
    (
      "discretionary on cellular in Low Power Mode", request(discretionary: true),
      conditions(network: cellular, power: PowerState(charging: true, lowPowerMode: true)),
      .discretionary(missing: ["wifi", "lowPowerModeOff"])
    ),
    (
      "a retry skips the first-start rules",
      request(firstStart: false, earliestBegin: later, discretionary: true),
      conditions(power: PowerState()), nil
    ),
    ("offline", request(), conditions(network: .offline), .connectivity),
    ("cellular disallowed", request(noCellular), conditions(network: cellular), .cellularNotAllowed),
    ("expensive disallowed", request(noExpensive), conditions(network: cellular), .expensiveNotAllowed),
    (
      "constrained disallowed", request(noConstrained),
      conditions(network: NetworkState(interface: .wifi, constrained: true)), .constrainedNotAllowed
    ),
    ("at the connection limit", request(running: 4), conditions(), .connectionLimit),
    ("below the connection limit", request(running: 3), conditions(), nil),
    (
      "a default session while the app is suspended", request(.default()), conditions(app: .suspended),
      .appSuspended
    ),
    ("a background session while the app is suspended", request(), conditions(app: .suspended), nil),
    (
      "a default session ignores earliestBeginDate", request(.default(), earliestBegin: later), conditions(),
      nil
    ),
  ]

  @Test("each start rule, alone", arguments: cases.indices)
  func rule(_ index: Int) {
    let (what, request, conditions, expected) = Self.cases[index]
    #expect(Admission.waitReason(request, in: conditions) == expected, "\(what)")
  }

  @Test("the connectionLimitOffByOne fault lets one more connect")
  func slack() {
    var conditions = Self.conditions()
    conditions.connectionSlack = 1
    #expect(Admission.waitReason(Self.request(running: 4), in: conditions) == nil)
  }

  @Test("every wait-reason name comes from one list, and task.deferred never carries retryBackoff")
  func names() {
    #expect(SimURLSessionTask.WaitReason.allNames.count == SimURLSessionTask.WaitReason.Kind.allCases.count)
    #expect(SimURLSessionTask.WaitReason.discretionary(missing: ["wifi"]).name == "discretionary")
    #expect(!SimURLSessionTask.WaitReason.Kind.deferrable.contains(.retryBackoff))
  }
}

@Suite("Admission after a restart")
struct AdmissionDeviceLockedTests {
  @Test("before the first unlock every task waits for deviceLocked, before any other reason")
  func deviceLocked() {
    var conditions = AdmissionTests.conditions(network: .offline)
    conditions.deviceLocked = true
    #expect(Admission.waitReason(AdmissionTests.request(), in: conditions) == .deviceLocked)
    conditions.network = AdmissionTests.wifi
    #expect(Admission.waitReason(AdmissionTests.request(firstStart: false), in: conditions) == .deviceLocked)
    conditions.deviceLocked = false
    #expect(Admission.waitReason(AdmissionTests.request(firstStart: false), in: conditions) == nil)
  }
}
