import SimKernel
import Testing

@testable import TransferEngine

/// `task.retry offset=` is the offset the attempt really starts from.
@Suite("Retry offsets")
struct RetryOffsetTests {
  /// 1 MB at 500 KB/s; Wi-Fi lost at 40% and back 10 minutes later.
  static func run(_ resource: ServerResource) throws -> Simulation {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Step(at: SimTime(.milliseconds(860)), .offline),
        Fixture.network(.wifi, at: .milliseconds(860) + .minutes(10)),
      ],
      resources: [resource], app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.hours(1)))
    return sim
  }

  @Test(
    "a download that cannot resume retries from 0 and says so; one that can, from its offset",
    arguments: [(false, true, Int64(0)), (true, false, 0), (true, true, 400_000)])
  func offset(_ validator: Bool, _ acceptsRanges: Bool, _ expected: Int64) throws {
    let resource = Fixture.resource(
      "https://example.com/a", size: 1_000_000, etag: validator ? "v1" : nil, acceptsRanges: acceptsRanges)
    let sim = try Self.run(resource)
    let retry = try #require(Fixture.events(sim, "task.retry").first)
    #expect(retry["offset"] == .int(expected))
    let finished = try #require(Fixture.events(sim, "task.finished").first)
    // The body after the retry: what is left from the offset, at 500 KB/s, plus a round trip.
    let seconds = Double(1_000_000 - expected) / 500_000
    #expect(finished.time - retry.time == .milliseconds(60) + .seconds(rounding: seconds))
  }
}
