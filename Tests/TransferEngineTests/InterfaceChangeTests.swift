import SimKernel
import Testing

@testable import TransferEngine

/// An interface change with an allowed interface up is not a failure: the interrupted transfers
/// retry on the new interface at once, in resume order, before newer waiting tasks.
@Suite("Interface changes keep the interrupted transfers' slots")
struct InterfaceChangeTests {
  /// 8 downloads of 10 MB, 4 connections per host; Wi-Fi (4 Mbps, 500 KB/s shared by 4) becomes
  /// cellular at 70 s, when the first four are at about 87%.
  static func run(switchTo next: InterfaceKind = .cellular, allowsCellular: Bool = true) throws -> Simulation
  {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.allowsCellularAccess = allowsCellular
    let app = TestApp([configuration])
    let sim = Fixture.simulation(
      network: [Fixture.network(.wifi), Fixture.network(next, at: .seconds(70))],
      resources: (1...8).map { Fixture.resource("https://example.com/ep\($0)", size: 10_000_000) }, app: app)
    for i in 1...8 {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/ep\(i)", name: "ep\(i)").resume()
    }
    sim.run(until: SimTime(.hours(2)))
    return sim
  }

  @Test("Wi-Fi to cellular: the four interrupted downloads retry at once, before the newer four start")
  func interruptedFirst() throws {
    let sim = try Self.run()
    let change = SimTime(.seconds(70))
    let after = sim.trace.events.filter { $0.time >= change }
    let interrupted = after.filter { $0.is(.taskInterrupted) }.map { $0["task"]!.description }
    #expect(interrupted == ["ep1", "ep2", "ep3", "ep4"])
    #expect(after.filter { $0.is(.taskInterrupted) }.allSatisfy { $0["reason"] == "interfaceChanged" })
    // Retries at the change, in resume order, with no backoff, and before any newer task starts.
    let starts = after.filter { $0.is(.taskRetry) || $0.is(.taskStarted) }
    #expect(starts.prefix(4).map { $0["task"]!.description } == ["ep1", "ep2", "ep3", "ep4"])
    #expect(starts.prefix(4).allSatisfy { $0.is(.taskRetry) && $0.time == change })
    // The interrupted ones never wait for a connection slot.
    let deferred = after.filter { $0.is(.taskDeferred) && $0["reason"] == "connectionLimit" }
    #expect(!deferred.contains { ["ep1", "ep2", "ep3", "ep4"].contains($0["task"]!.description) })
    // So they finish before the newer four.
    let finished = sim.trace.events.filter { $0.is(.taskFinished) }.map { $0["task"]!.description }
    #expect(Array(finished.prefix(4)).sorted() == ["ep1", "ep2", "ep3", "ep4"])
  }

  @Test("a change to an interface the session does not allow still waits for an allowed one")
  func disallowedInterfaceWaits() throws {
    let sim = try Self.run(allowsCellular: false)
    let after = sim.trace.events.filter { $0.time >= SimTime(.seconds(70)) }
    #expect(!after.contains { $0.is(.taskRetry) || $0.is(.taskStarted) })
    #expect(after.contains { $0.is(.taskDeferred) && $0["reason"] == "cellularNotAllowed" })
  }
}
