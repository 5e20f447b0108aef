import Foundation
import SimKernel
import Testing

@testable import TransferEngine

extension Data {
  /// The offset this resume data records, for assertions (nil when it is not resume data).
  var resumeOffset: Int64? { (try? ResumeDataContents(self))?.offset }
}

@Suite("Resume data is opaque Data")
struct ResumeDataTests {
  /// 1 MB at 4 Mbps after a 60 ms round trip: 40% = 400 KB at 0.86 s.
  static let fortyPercent = SimDuration.milliseconds(860)

  /// A simulation with a download cancelled at 40% and the resume data it produced.
  static func cancelledDownload() throws -> (Simulation, TestApp, Data) {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a")
    task.resume()
    sim.run(until: SimTime(fortyPercent))
    var data: Data?
    task.cancel(byProducingResumeData: { data = $0 })
    return (sim, app, try #require(data))
  }

  @Test("the bytes round-trip: versioned, readable back into what they say")
  func roundTrip() throws {
    let contents = ResumeDataContents(
      token: 7, url: SimURL("https://example.com/a?b=1")!, offset: 123_456_789_012, validator: "\"é-tag\"",
      sessionIdentifier: "bg.session")
    let data = contents.data
    #expect(Array(data.prefix(5)) == Array("BGRD".utf8) + [1])
    #expect(try ResumeDataContents(data) == contents)
  }

  @Test("garbage, truncated, corrupted and other-version data are errors, never traps")
  func malformed() throws {
    let good = ResumeDataContents(
      token: 1, url: SimURL("https://example.com/a")!, offset: 5, validator: "v1", sessionIdentifier: "S"
    ).data
    var flipped = good
    flipped[flipped.count / 2] ^= 0x40
    var otherVersion = good
    otherVersion[4] = 9
    var hugeLength = Data(good.prefix(21))
    hugeLength += Data([0xFF, 0xFF, 0xFF, 0xFF])
    let cases: [(Data, ResumeDataError)] = [
      (Data(), .malformed), (Data("not resume data".utf8), .malformed), (good.dropLast(), .malformed),
      (good + Data([0]), .malformed), (flipped, .malformed), (otherVersion, .unsupportedVersion(9)),
      (hugeLength, .malformed), (Data(repeating: 0xFF, count: 4096), .malformed),
    ]
    for (data, expected) in cases {
      #expect(throws: expected) { try ResumeDataContents(data) }
    }
    // Every prefix of good data is refused.
    for length in 0..<good.count {
      #expect(throws: ResumeDataError.malformed) { try ResumeDataContents(good.prefix(length)) }
    }
  }

  @Test("resume data written to disk and read back in a later process resumes at its offset")
  func survivesDiskAndRelaunch() throws {
    let (sim, app, data) = try Self.cancelledDownload()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-resume-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try data.write(to: file)
    sim.terminateApp()
    sim.run(until: SimTime(.minutes(1)))
    sim.launchApp()
    let read = try Data(contentsOf: file)
    let again = try app.sessions["S"]!.downloadTask(withResumeData: read, name: "b")
    again.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(app.resumedAt.last?.0 == "b" && app.resumedAt.last?.1 == 400_000)
    #expect(again.countOfBytesReceived == 1_000_000 && again.error == nil)
  }

  @Test("garbage or stale data makes a task that fails with cannotWriteToFile, traced with the problem")
  func rejected() throws {
    let (sim, app, data) = try Self.cancelledDownload()
    let stale = ResumeDataContents(
      token: 1, url: SimURL("https://example.com/a")!, offset: 999, validator: "v1", sessionIdentifier: "S"
    ).data
    let unknown = ResumeDataContents(
      token: 99, url: SimURL("https://example.com/a")!, offset: 400_000, validator: "v1",
      sessionIdentifier: "S"
    ).data
    let cases: [(String, Data, String, String)] = [
      ("garbage", Data("hello".utf8), "malformed", MakeResumedTaskRule.unknownURL),
      ("truncated", data.dropLast(3), "malformed", MakeResumedTaskRule.unknownURL),
      ("edited", stale, "stale", "https://example.com/a"),
      ("unknown", unknown, "stale", "https://example.com/a"),
    ]
    for (name, bytes, problem, url) in cases {
      let task = try app.sessions["S"]!.downloadTask(withResumeData: bytes, name: name)
      #expect(task.originalURL.string == url)
      #expect(task.state == .suspended)
      task.resume()
      #expect(task.state == .completed)
      #expect(task.error?.code == .cannotWriteToFile)
      let rejected = Fixture.events(sim, "task.resumeDataRejected").filter { $0["task"] == .string(name) }
      #expect(rejected.count == 1 && rejected.first?["problem"] == .string(problem))
      let failed = Fixture.events(sim, "task.failed").filter { $0["task"] == .string(name) }
      #expect(failed.first?["error"] == "cannotWriteToFile" && failed.first?["code"] == TraceValue.int(-3003))
    }
    sim.run(until: SimTime(.minutes(1)))
    let completed = app.completions.filter { ["garbage", "truncated", "edited", "unknown"].contains($0.0) }
    #expect(completed.count == 4 && completed.allSatisfy { $0.1?.code == .cannotWriteToFile })
    // The good data still resumes after all that.
    let good = try app.sessions["S"]!.downloadTask(withResumeData: data, name: "good")
    good.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(good.error == nil && app.resumedAt.last?.1 == 400_000)
  }

  @Test("resume data from another simulation is stale there")
  func otherSimulation() throws {
    let (_, _, data) = try Self.cancelledDownload()
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: [Fixture.resource("https://example.com/b", size: 10)], app: app)
    let task = try app.sessions["S"]!.downloadTask(withResumeData: data, name: "x")
    task.resume()
    #expect(task.error?.code == .cannotWriteToFile)
    #expect(Fixture.events(sim, "task.resumeDataRejected").first?["problem"] == "stale")
  }

  /// Only a GET download can be resumed [A]: the same cancel at 40% gives no resume data when the
  /// request was a POST, and the task's creation says which method it used.
  @Test("a download made with a method other than GET produces no resume data", arguments: ["GET", "post"])
  func onlyGETResumes(method: String) throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/a", size: 1_000_000)], app: app)
    let task = try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a", method: method)
    task.resume()
    sim.run(until: SimTime(Self.fortyPercent))
    var data: Data?
    task.cancel(byProducingResumeData: { data = $0 })
    let created = try #require(Fixture.events(sim, "task.created").first)
    // Every field it carries is one expectations may name.
    #expect(created.fields.allSatisfy { TraceKind.taskCreated.fieldNames.contains($0.key) })
    if method == "GET" {
      #expect(data?.resumeOffset == 400_000)
      #expect(created["method"] == nil)
    } else {
      #expect(data == nil)
      #expect(task.httpMethod == "POST")
      #expect(created["method"] == "POST")
    }
  }
}
