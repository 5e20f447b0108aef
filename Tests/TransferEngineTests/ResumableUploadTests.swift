import SimKernel
import Testing

@testable import TransferEngine

/// Resumable uploads (behavior.md, "Resumable uploads").
@Suite("Resumable uploads")
struct ResumableUploadTests {
  static func target(_ url: String, resumable: Bool, responseBody: Int64 = 0) -> ServerResource {
    var r = ServerResource(url: Fixture.url(url), size: 0, responseBody: responseBody, method: "POST")
    r.resumableUploads = resumable
    return r
  }

  /// 8 MB up at 1 Mbps (64 s), Wi-Fi lost from 20 s to 60 s.
  static func interrupted(resumable: Bool, policy: Policy = .defaults, responseBody: Int64 = 0) throws -> (
    Simulation, SimURLSessionTask
  ) {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Fixture.network(.none, at: .seconds(20)),
        Fixture.network(.wifi, at: .seconds(60)),
      ],
      resources: [Self.target("https://example.com/up", resumable: resumable, responseBody: responseBody)],
      policy: policy, app: app)
    let task = try app.sessions["S"]!.uploadTask(
      with: "https://example.com/up", fromFileOfSize: 8_000_000, name: "u")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    return (sim, task)
  }

  static func retryOffset(_ sim: Simulation) -> Int64? {
    if case .int(let offset)? = Fixture.events(sim, "task.retry").first?["offset"] { return offset }
    return nil
  }

  @Test("a server that speaks the draft: the retry continues from the bytes it has, nothing is wasted")
  func continues() throws {
    let (sim, task) = try Self.interrupted(resumable: true)
    let interrupted = try #require(Fixture.events(sim, "task.interrupted").first)
    let sentBefore = try #require(interrupted["bytes"])
    #expect(sentBefore != .int(0))
    #expect(Self.retryOffset(sim).map { TraceValue.int($0) } == sentBefore)
    #expect(Fixture.events(sim, "task.restartedFromZero").isEmpty)
    #expect(task.bytesWasted == 0)
    #expect(task.bytesOnWire == 8_000_000)
    #expect(task.countOfBytesSent == 8_000_000)
    #expect(task.state == .completed && task.error == nil)
  }

  @Test("a plain server: the upload starts again from zero and what it had sent is wasted")
  func restarts() throws {
    let (sim, task) = try Self.interrupted(resumable: false)
    #expect(Self.retryOffset(sim) == 0)
    let restart = try #require(Fixture.events(sim, "task.restartedFromZero").first)
    #expect(restart["reason"] == .string("uploadNotResumable"))
    #expect(task.bytesWasted > 2_000_000)
    #expect(task.bytesOnWire == 8_000_000 + task.bytesWasted)
    #expect(task.state == .completed)
  }

  @Test("resumableUploads false (iOS 16 and earlier): a server that speaks the draft does not help")
  func iOS16() throws {
    var policy = Policy.defaults
    policy.resumableUploads = false
    let (sim, task) = try Self.interrupted(resumable: true, policy: policy)
    #expect(Self.retryOffset(sim) == 0)
    #expect(task.bytesWasted > 0)
  }

  @Test("cut off while the response comes back: the body is not sent again, only the response is")
  func bodyAlreadyThere() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    // 1 MB up (8 s at 1 Mbps), then a 20 MB response (40 s at 4 Mbps), cut at 20 s.
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Fixture.network(.none, at: .seconds(20)),
        Fixture.network(.wifi, at: .seconds(60)),
      ],
      resources: [Self.target("https://example.com/up", resumable: true, responseBody: 20_000_000)], app: app)
    let task = try app.sessions["S"]!.uploadTask(
      with: "https://example.com/up", fromFileOfSize: 1_000_000, name: "u")
    task.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.retryOffset(sim) == 1_000_000)
    #expect(task.state == .completed)
    #expect(task.countOfBytesSent == 1_000_000 && task.countOfBytesReceived == 20_000_000)
    // The body once; the response's first part twice.
    #expect(task.bytesWasted > 0 && task.bytesWasted < 20_000_000)
    #expect(task.bytesOnWire == 21_000_000 + task.bytesWasted)
  }

  @Test("suspend() and resume() on an upload to such a server: it continues from its bytes")
  func suspended() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Self.target("https://example.com/up", resumable: true)], app: app)
    let task = try app.sessions["S"]!.uploadTask(
      with: "https://example.com/up", fromFileOfSize: 8_000_000, name: "u")
    task.resume()
    sim.schedule(at: SimTime(.seconds(20))) { _ in task.suspend() }
    sim.schedule(at: SimTime(.seconds(40))) { _ in task.resume() }
    sim.run(until: SimTime(.hours(1)))
    #expect(task.bytesWasted == 0)
    #expect(Self.retryOffset(sim).map { $0 > 2_000_000 } == true)
  }
}
