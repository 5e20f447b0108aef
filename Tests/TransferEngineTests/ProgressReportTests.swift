import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Progress reports (behavior.md, "Network and transfers"): `didSendBodyData` at most once per
/// tenth of an upload's body while the app runs, and once at 100% when the body is all sent,
/// before the response; `bytesWritten` / `bytesSent` are the bytes since the previous call.
@Suite("Progress reports")
struct ProgressReportTests {
  /// 10 MB up at 1 Mbit/s: 80 s on the uplink.
  static let target = Fixture.resource("https://example.com/up", size: 0, responseBody: 400)

  func upload(_ app: TestApp, _ session: String = "S", size: Int64 = 10_000_000) throws {
    try app.sessions[session]!.uploadTask(with: "https://example.com/up", fromFileOfSize: size, name: "u")
      .resume()
  }

  /// An app with the background session `S`, and two 20 MB files on the server, `a` and `b`.
  static func twoDownloads() -> (TestApp, Simulation) {
    let app = TestApp([.background(withIdentifier: "S")])
    let files = ["a", "b"].map { Fixture.resource("https://example.com/\($0)", size: 20_000_000) }
    return (app, Fixture.simulation(resources: files, app: app))
  }

  @Test("one call per tenth crossed, then one at 100%; the steps add up to the body")
  func tenthsThenAll() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: [Self.target], app: app)
    try upload(app)
    sim.run(until: SimTime(.minutes(5)))
    let totals = app.sent.map(\.total)
    #expect(app.sent.count == 10)
    for (k, total) in totals.dropLast().enumerated() {
      // The k+1-th call is the first at or past k+1 tenths, and still short of the next tenth.
      #expect(total >= Int64(k + 1) * 1_000_000 && total < Int64(k + 2) * 1_000_000)
    }
    #expect(totals.last == 10_000_000)
    #expect(app.sent.allSatisfy { $0.expected == 10_000_000 && $0.count == $0.total && $0.task == "u" })
    #expect(app.sent.map(\.step).reduce(0, +) == 10_000_000)
    #expect(app.completions.map(\.0) == ["u"])
    // Not traced: the trace is what it was before upload progress was reported.
    #expect(!sim.trace.events.contains { $0.kind.contains("SendBody") })
  }

  @Test("the 100% call comes before the response body and the completion")
  func beforeTheResponse() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(resources: [Self.target], app: app)
    try upload(app, "F", size: 100_000)
    sim.run(until: SimTime(.minutes(5)))
    #expect(app.calls.last(where: { $0.hasPrefix("sent") }) == "sent 100000/100000")
    #expect(Array(app.calls.suffix(3)) == ["sent 100000/100000", "received 400", "completed u"])
  }

  @Test("no progress while the app is suspended: a background upload reports only what it sent while it ran")
  func onlyWhileRunning() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: [Self.target], app: app)
    try upload(app)
    // The app leaves the foreground at 25 s (about 3 tenths sent) and is suspended 5 s later.
    sim.schedule(at: SimTime(.seconds(25))) { $0.backgroundApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(sim.trace.events.contains { $0.kind == "task.finished" && $0["task"] == .string("u") })
    #expect(!app.sent.isEmpty)
    #expect(app.sent.allSatisfy { $0.total < 10_000_000 })
    #expect(app.sent.count <= 3)
  }

  @Test(
    "a relaunched app that recreates its session hears the tenths of transfers still running, in creation order"
  )
  func armedAtRelaunch() throws {
    let (app, sim) = Self.twoDownloads()
    for name in ["a", "b"] {
      try app.sessions["S"]!.downloadTask(with: "https://example.com/\(name)", name: name).resume()
    }
    // Both share 4 Mbit/s: 80 s each. The process ends at 10 s; the user opens the app at 30 s.
    sim.schedule(at: SimTime(.seconds(10))) { $0.terminateApp() }
    sim.schedule(at: SimTime(.seconds(30))) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(10)))
    let afterLaunch = sim.trace.events.filter {
      $0.kind == "delegate.didWriteData" && $0.time > SimTime(.seconds(30))
        && $0["totalBytesWritten"] != .int(20_000_000)
    }
    #expect(afterLaunch.count >= 4, "tenths reported after the relaunch, before the end")
    #expect(afterLaunch.prefix(2).map { $0["task"] } == [.string("a"), .string("b")])
  }

  @Test("an upload sent again from zero reports its tenths again")
  func restartFromZero() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(resources: [Self.target], app: app)
    let task = try app.sessions["F"]!.uploadTask(
      with: "https://example.com/up", fromFileOfSize: 10_000_000, name: "u")
    task.resume()
    sim.schedule(at: SimTime(.seconds(30))) { _ in task.suspend() }
    sim.schedule(at: SimTime(.seconds(40))) { _ in task.resume() }
    sim.run(until: SimTime(.minutes(5)))
    let totals = app.sent.map(\.total)
    let restart = try #require(totals.indices.dropFirst().first { totals[$0] < totals[$0 - 1] })
    #expect(totals[restart] < 2_000_000)
    #expect(totals.last == 10_000_000)
    #expect(app.sent.count == restart + 10)
    #expect(app.sent[restart].step == totals[restart])
  }

  @Test("didWriteData's bytesWritten is the bytes since the previous call")
  func downloadSteps() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/f", size: 20_000_000)], app: app)
    let task = try app.sessions["F"]!.downloadTask(with: "https://example.com/f", name: "f")
    task.resume()
    sim.run(until: SimTime(.minutes(5)))
    let totals = app.progress.map(\.1)
    #expect(totals.count == 10)
    #expect(totals.last == 20_000_000)
    #expect(app.writeSteps == zip(totals, [0] + totals.dropLast()).map { $0 - $1 })
  }

  @Test("per-tenth reports come at most once per simulated second; a fast download skips tenths")
  func atMostOncePerSecond() throws {
    let app = TestApp([.default(identifier: "F")])
    // 2 MB at the fixture's Wi-Fi rate (4 Mbit/s): 4 s, so tenths come faster than one a second.
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/f", size: 2_000_000)], app: app)
    try app.sessions["F"]!.downloadTask(with: "https://example.com/f", name: "f").resume()
    sim.run(until: SimTime(.minutes(5)))
    let reports = sim.trace.events.filter { $0.kind == "delegate.didWriteData" }
    let perTenth = reports.dropLast().map(\.time)
    #expect(perTenth.count >= 2 && perTenth.count < 9)
    for (a, b) in zip(perTenth, perTenth.dropFirst()) { #expect(b - a >= .seconds(1)) }
    #expect(reports.last?["totalBytesWritten"] == .int(2_000_000))
  }

  @Test("a link that slows after a report still gets the next tenth reported")
  func slowerLinkStillReports() throws {
    let app = TestApp([.default(identifier: "F")])
    var resources = [Fixture.resource("https://a.example.com/f", size: 2_000_000)]
    for i in 0..<9 { resources.append(Fixture.resource("https://h\(i).example.com/g", size: 50_000_000)) }
    let sim = Fixture.simulation(resources: resources, app: app)
    try app.sessions["F"]!.downloadTask(with: "https://a.example.com/f", name: "f").resume()
    // Nine downloads join just after a report: the rest of f now takes seconds, not a fraction.
    sim.schedule(at: SimTime(.milliseconds(3_500))) { _ in
      for i in 0..<9 {
        try? app.sessions["F"]!.downloadTask(with: "https://h\(i).example.com/g", name: "g\(i)").resume()
      }
    }
    sim.run(until: SimTime(.seconds(30)))
    let reports = sim.trace.events.filter { $0.kind == "delegate.didWriteData" && $0["task"] == .string("f") }
    let finished = try #require(
      sim.trace.events.first { $0.kind == "task.finished" && $0["task"] == .string("f") })
    let lastTenth = try #require(reports.dropLast().last)
    #expect(lastTenth["totalBytesWritten"] == .int(1_800_000))
    #expect(finished.time - lastTenth.time <= .seconds(5))
  }

  @Test("an upload with an empty body gets no didSendBodyData")
  func emptyUpload() throws {
    let app = TestApp([.default(identifier: "F")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/up", size: 0, responseBody: 400)], app: app)
    try app.sessions["F"]!.uploadTask(with: "https://example.com/up", fromFileOfSize: 0, name: "u").resume()
    sim.run(until: SimTime(.minutes(1)))
    #expect(app.completions.map(\.0) == ["u"])
    #expect(app.sent.isEmpty)
  }

  @Test("bytesWritten adds up to the total across a retry from an offset within one task")
  func stepsAcrossRetry() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      network: [
        Fixture.network(.wifi), Fixture.network(.none, at: .milliseconds(10_500)),
        Fixture.network(.wifi, at: .seconds(12)),
      ],
      resources: [Fixture.resource("https://example.com/f", size: 20_000_000)], app: app)
    try app.sessions["S"]!.downloadTask(with: "https://example.com/f", name: "f").resume()
    sim.run(until: SimTime(.minutes(10)))
    #expect(sim.trace.events.contains { $0.kind == "task.retry" })
    #expect(app.progress.last?.1 == 20_000_000)
    #expect(app.writeSteps.reduce(0, +) == 20_000_000)
  }

  @Test("a download's last didWriteData is at 100%, just before didFinishDownloadingTo; none at a wake")
  func downloadEndsAtAll() throws {
    let (app, sim) = Self.twoDownloads()
    try app.sessions["S"]!.downloadTask(with: "https://example.com/a", name: "a").resume()
    sim.run(until: SimTime(.minutes(5)))
    let kinds = sim.trace.events.map(\.kind)
    let finished = try #require(kinds.firstIndex(of: "delegate.didFinishDownloading"))
    #expect(kinds[finished - 1] == "delegate.didWriteData")
    #expect(sim.trace.events[finished - 1]["totalBytesWritten"] == .int(20_000_000))
    #expect(sim.trace.events[finished - 1]["totalBytesExpectedToWrite"] == .int(20_000_000))
    #expect(app.progress.last?.0 == "a" && app.progress.last?.1 == 20_000_000)
    // A download that finishes while the app is suspended gets no progress at the wake.
    try app.sessions["S"]!.downloadTask(with: "https://example.com/b", name: "b").resume()
    sim.backgroundApp()
    sim.run(until: SimTime(.minutes(20)))
    #expect(
      sim.trace.events.contains { $0.kind == "delegate.didFinishDownloading" && $0["task"] == .string("b") })
    #expect(app.progress.last { $0.0 == "b" }?.1 != 20_000_000)
    #expect(sim.trace.events.contains { $0.kind == "app.suspend" })
  }

  @Test("after resume data, the first bytesWritten counts from the offset")
  func resumedSteps() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(
      resources: [Fixture.resource("https://example.com/f", size: 20_000_000)], app: app)
    let session = app.sessions["S"]!
    let first = try session.downloadTask(with: "https://example.com/f", name: "f")
    first.resume()
    var data: Data?
    sim.schedule(at: SimTime(.seconds(2))) { _ in first.cancel(byProducingResumeData: { data = $0 }) }
    sim.schedule(at: SimTime(.seconds(3))) { _ in
      try? session.downloadTask(withResumeData: data ?? Data(), name: "g").resume()
    }
    sim.run(until: SimTime(.minutes(5)))
    let offset = try #require(app.resumedAt.first { $0.0 == "g" }?.1)
    #expect(offset > 0)
    let resumed = app.progress.indices.filter { app.progress[$0].0 == "g" }
    let firstIndex = try #require(resumed.first)
    #expect(app.writeSteps[firstIndex] == app.progress[firstIndex].1 - offset)
  }
}
