import Foundation
import SimKernel
import Testing

@testable import TransferEngine

@Suite("The request idle timeout (timeoutIntervalForRequest) and stalled servers")
struct StallTests {
  /// 1 MB at 4 Mbps after a 60 ms round trip: 40% at 0.86 s, done at 2.06 s without a stall.
  static let url = "https://example.com/a"

  static func run(_ configuration: SessionConfiguration, stallFor: SimDuration) throws -> (
    Simulation, SimURLSessionTask
  ) {
    let app = TestApp([configuration])
    let from = SimTime(.milliseconds(860))
    let sim = Fixture.simulation(
      resources: [Fixture.resource(url, size: 1_000_000)],
      faults: [.stall(from: from, to: from + stallFor, target: .host("example.com"))], app: app)
    let task = try app.sessions[configuration.identifier]!.downloadTask(with: url, name: "a")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    return (sim, task)
  }

  @Test("a stall shorter than the request timeout only delays the transfer")
  func shortStall() throws {
    let (sim, task) = try Self.run(.background(withIdentifier: "S"), stallFor: .seconds(30))
    #expect(Fixture.events(sim, "task.stalled").first?["bytes"] == .int(400_000))
    #expect(Fixture.events(sim, "task.flowing").count == 1)
    #expect(Fixture.events(sim, "task.interrupted").isEmpty)
    #expect(Fixture.time(sim, "task.finished", task: "a") == SimTime(.milliseconds(2060) + .seconds(30)))
    #expect(task.countOfBytesReceived == 1_000_000)
  }

  @Test("a background session retries a request that timed out, continuing at its offset")
  func backgroundRetries() throws {
    let (sim, task) = try Self.run(.background(withIdentifier: "S"), stallFor: .minutes(5))
    let interrupted = try #require(Fixture.events(sim, "task.interrupted").first)
    #expect(interrupted["reason"] == "requestTimeout")
    #expect(interrupted.time == SimTime(.milliseconds(860) + .seconds(60)))
    // Retries at +10 s, +20 s, +40 s ... keep timing out while the server stalls, then one succeeds.
    let retries = Fixture.events(sim, "task.retry")
    #expect(retries.count >= 2)
    #expect(retries.allSatisfy { $0["offset"] == .int(400_000) })
    #expect(task.error == nil)
    #expect(task.countOfBytesReceived == 1_000_000)
    let finished = try #require(Fixture.time(sim, "task.finished", task: "a"))
    #expect(finished > SimTime(.milliseconds(860) + .minutes(5)))
  }

  @Test("a default session fails a request that timed out with -1001 and resume data")
  func defaultFails() throws {
    let (sim, task) = try Self.run(.default(identifier: "D"), stallFor: .minutes(5))
    let failed = try #require(Fixture.events(sim, "task.failed").first)
    #expect(failed.time == SimTime(.milliseconds(860) + .seconds(60)))
    #expect(task.error?.code == .timedOut)
    #expect(task.error?.resumeData?.resumeOffset == 400_000)
  }
}
