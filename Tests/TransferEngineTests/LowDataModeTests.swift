import SimKernel
import Testing

@testable import TransferEngine

/// Low Data Mode details (issue 27, item 6): a request's own `allowsConstrainedNetworkAccess`
/// can only be stricter than its session's, and a task that fails for want of an allowed
/// interface says why in `networkUnavailableReason`.
@Suite("Low Data Mode")
struct LowDataModeTests {
  static let resources = [Fixture.resource("https://example.com/a", size: 1_000_000)]

  static func session(_ kind: SessionConfiguration.Kind, allowsConstrained: Bool = true)
    -> SessionConfiguration
  {
    var c = SessionConfiguration(identifier: "S", kind: kind)
    c.allowsConstrainedNetworkAccess = allowsConstrained
    return c
  }

  /// Runs one download on Low Data Mode Wi-Fi that ends at 1h; returns the app and the sim.
  static func run(
    _ configuration: SessionConfiguration, requestAllows: Bool, network: [Step<NetworkState>]? = nil
  ) throws -> (TestApp, Simulation) {
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: network ?? [
        Fixture.network(.wifi, constrained: true), Fixture.network(.wifi, at: .hours(1)),
      ],
      resources: Self.resources, app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.allowsConstrainedNetworkAccess = requestAllows
    task.resume()
    sim.run(until: SimTime(.days(1)))
    return (app, sim)
  }

  @Test("a request that disallows Low Data Mode waits in a session that allows it")
  func requestIsStricter() throws {
    let (_, sim) = try Self.run(Self.session(.background), requestAllows: false)
    #expect(Fixture.events(sim, "task.deferred").first?["reason"] == "constrainedNotAllowed")
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.hours(1)))
  }

  @Test("a request cannot loosen a session that disallows Low Data Mode")
  func requestCannotLoosen() throws {
    let (_, sim) = try Self.run(Self.session(.background, allowsConstrained: false), requestAllows: true)
    #expect(Fixture.time(sim, "task.started", task: "a") == SimTime(.hours(1)))
  }

  @Test("a running transfer whose request disallows Low Data Mode is cut when it turns on")
  func cutWhenConstrained() throws {
    let network = [
      Fixture.network(.wifi, down: 0.08),
      Fixture.network(.wifi, at: .seconds(10), down: 0.08, constrained: true),
    ]
    let (_, sim) = try Self.run(Self.session(.background), requestAllows: false, network: network)
    #expect(Fixture.events(sim, "task.interrupted").first?["reason"] == "interfaceNotAllowed")
    #expect(Fixture.events(sim, "task.finished").isEmpty)
  }

  @Test(
    "a default session's task that finds only a disallowed interface fails with its reason",
    arguments: [
      (Fixture.network(.wifi, constrained: true), false, SimURLError.NetworkUnavailableReason.constrained),
      (Fixture.network(.cellular), true, .expensive),
    ])
  func failureCarriesTheReason(
    _ step: Step<NetworkState>, _ requestAllowsConstrained: Bool,
    _ reason: SimURLError.NetworkUnavailableReason
  ) throws {
    var configuration = Self.session(.default)
    if reason == .expensive { configuration.allowsExpensiveNetworkAccess = false }
    let (app, sim) = try Self.run(configuration, requestAllows: requestAllowsConstrained, network: [step])
    let error = try #require(app.completions.first?.1)
    #expect(error.code == .notConnectedToInternet)
    #expect(error.networkUnavailableReason == reason)
    #expect(Fixture.events(sim, "task.failed").first?["networkUnavailableReason"] == .string(reason.name))
    #expect(
      Fixture.events(sim, "delegate.didComplete").first?["networkUnavailableReason"] == .string(reason.name))
  }

  @Test("no interface at all fails without a reason")
  func offlineHasNoReason() throws {
    let (app, _) = try Self.run(
      Self.session(.default), requestAllows: true, network: [Fixture.network(.none)])
    let error = try #require(app.completions.first?.1)
    #expect(error.code == .notConnectedToInternet && error.networkUnavailableReason == nil)
  }
}
