import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Upload resume data and the device's iOS version (behavior.md, "Upload resume data" and
/// "iOS versions").
@Suite("Upload resume data")
struct UploadResumeDataTests {
  static let url = "https://example.com/up"

  /// A device on `version` with `policy` (default: that version's defaults), one upload target
  /// that speaks the draft up to `serverDraft` (nil: whatever the device speaks).
  static func simulation(
    version: String = "26", policy: Policy? = nil, resumable: Bool = true,
    serverDraft: ResumableUploadDraft? = nil,
    network: [Step<NetworkState>] = [Fixture.network(.wifi)], app: TestApp
  ) -> Simulation {
    var device = DeviceModel(network: network)
    device.iosVersion = IOSVersion(version)!
    var target = ServerResource(url: Fixture.url(url), size: 0, method: "POST")
    target.resumableUploads = resumable
    target.resumableUploadDraft = serverDraft
    let sim = Simulation(
      seed: 1, device: device, server: ServerModel(resources: [target]),
      policy: policy ?? Policy.defaults(for: device.iosVersion))
    return Fixture.launched(sim, app)
  }

  /// 8 MB at 1 Mbps up (64 s): cancelled with resume data at 20 s; the data, if any.
  static func cancelled(_ sim: Simulation, _ app: TestApp) throws -> (SimURLSessionTask, Data?) {
    let task = try app.sessions["S"]!.uploadTask(with: url, fromFileOfSize: 8_000_000, name: "u")
    task.resume()
    sim.run(until: SimTime(.seconds(20)))
    var produced: Data?
    task.cancel(byProducingResumeData: { produced = $0 })
    return (task, produced)
  }

  static func lints(_ sim: Simulation, _ rule: LintRule) -> [TraceEvent] {
    Fixture.events(sim, "lint").filter { $0["rule"] == .string(rule.rawValue) }
  }

  @Test(
    "cancel(byProducingResumeData:) gives the server's offset; uploadTask(withResumeData:) sends only the rest"
  )
  func pauseAndContinue() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(app: app)
    let (task, produced) = try Self.cancelled(sim, app)
    let data = try #require(produced)
    let contents = try ResumeDataContents(data)
    #expect(contents.upload == UploadResumeInfo(bodySize: 8_000_000, fromFile: true, draft: .v6))
    #expect(contents.offset == task.countOfBytesSent && contents.offset > 1_000_000)
    let next = try app.sessions["S"]!.uploadTask(withResumeData: data, name: "v")
    next.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(next.state == .completed && next.error == nil)
    #expect(next.countOfBytesSent == 8_000_000)
    #expect(next.bytesOnWire == 8_000_000 - contents.offset)
    #expect(Self.lints(sim, .apiUnavailable).isEmpty)
  }

  @Test("resume data is single use: used again, the upload sends its whole body and is linted")
  func reused() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(app: app)
    let data = try #require(try Self.cancelled(sim, app).1)
    let first = try app.sessions["S"]!.uploadTask(withResumeData: data, name: "v")
    let second = try app.sessions["S"]!.uploadTask(withResumeData: data, name: "w")
    first.resume()
    second.resume()
    sim.run(until: SimTime(.hours(1)))
    #expect(Self.lints(sim, .resumeDataReused).count == 1)
    #expect(second.state == .completed && second.bytesOnWire == 8_000_000)
  }

  @Test("a server on an older draft than the device gives no resume data, and restarts an interrupted upload")
  func olderServerDraft() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(version: "18.1", serverDraft: .v5, app: app)
    #expect(try Self.cancelled(sim, app).1 == nil)

    let app2 = TestApp([.background(withIdentifier: "S")])
    let lost = Self.simulation(
      version: "18.1", serverDraft: .v5,
      network: [
        Fixture.network(.wifi), Fixture.network(.none, at: .seconds(20)),
        Fixture.network(.wifi, at: .seconds(60)),
      ], app: app2)
    let task = try app2.sessions["S"]!.uploadTask(with: Self.url, fromFileOfSize: 8_000_000, name: "u")
    task.resume()
    lost.run(until: SimTime(.hours(1)))
    let restart = try #require(Fixture.events(lost, "task.restartedFromZero").first)
    #expect(restart["reason"] == .string("uploadDraftMismatch"))
    #expect(task.bytesWasted > 0)
  }

  @Test("a server on a newer draft answers an older device in its own version: iOS 17 resumes with draft 3")
  func newerServerDraft() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(version: "17", serverDraft: .v6, app: app)
    let data = try #require(try Self.cancelled(sim, app).1)
    #expect(try ResumeDataContents(data).upload?.draft == .v3)
  }

  @Test("before iOS 17 the upload resume-data APIs do not exist: linted, the cancel still happens, no data")
  func unavailableBeforeIOS17() throws {
    var policy = Policy.defaults(for: IOSVersion("16")!)
    #expect(policy.resumableUploads == false)
    policy.resumableUploads = true  // an explicit knob wins, but the API is still missing
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(version: "16", policy: policy, app: app)
    let (task, produced) = try Self.cancelled(sim, app)
    #expect(produced == nil)
    #expect(task.state == .completed && task.error?.code == .cancelled)
    let lint = try #require(Self.lints(sim, .apiUnavailable).first)
    #expect(lint["api"] == .string("cancel(byProducingResumeData:)"))
  }

  @Test("a default session's upload that fails when the network goes carries resume data in its error")
  func failedUploadCarriesResumeData() throws {
    let app = TestApp([.default(identifier: "S")])
    let sim = Self.simulation(
      network: [Fixture.network(.wifi), Fixture.network(.none, at: .seconds(20))], app: app)
    let task = try app.sessions["S"]!.uploadTask(with: Self.url, fromFileOfSize: 8_000_000, name: "u")
    task.resume()
    sim.run(until: SimTime(.minutes(5)))
    let error = try #require(task.error)
    #expect(error.code == .networkConnectionLost)
    let contents = try ResumeDataContents(try #require(error.resumeData))
    #expect(contents.upload != nil && contents.offset == task.countOfBytesSent)

    let plainApp = TestApp([.default(identifier: "S")])
    let plain = Self.simulation(
      resumable: false, network: [Fixture.network(.wifi), Fixture.network(.none, at: .seconds(20))],
      app: plainApp)
    let other = try plainApp.sessions["S"]!.uploadTask(with: Self.url, fromFileOfSize: 8_000_000, name: "u")
    other.resume()
    plain.run(until: SimTime(.minutes(5)))
    #expect(other.error?.code == .networkConnectionLost && other.error?.resumeData == nil)
  }

  @Test("an upload's resume data given to downloadTask(withResumeData:) is rejected: wrongTaskKind, -3003")
  func wrongKind() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Self.simulation(app: app)
    let data = try #require(try Self.cancelled(sim, app).1)
    let download = try app.sessions["S"]!.downloadTask(withResumeData: data, name: "d")
    download.resume()
    sim.run(until: SimTime(.minutes(1)))
    let rejected = try #require(Fixture.events(sim, "task.resumeDataRejected").first)
    #expect(rejected["problem"] == .string("wrongTaskKind"))
    #expect(download.error?.code == .cannotWriteToFile)
  }

  @Test("upload resume data round-trips through its bytes; a bad draft byte is malformed")
  func encoding() throws {
    let contents = ResumeDataContents(
      token: 3, url: Fixture.url(Self.url), offset: 5, validator: "", sessionIdentifier: "S",
      upload: UploadResumeInfo(bodySize: 9, fromFile: false, draft: .v5))
    #expect(try ResumeDataContents(contents.data) == contents)
    var bytes = Array(contents.data)
    let draftIndex = bytes.count - 9
    #expect(bytes[draftIndex] == 5)
    bytes[draftIndex] = 4
    // Fix the checksum so only the draft is wrong.
    let sum = ResumeDataCoding.checksum(bytes[..<(bytes.count - 8)])
    bytes.replaceSubrange((bytes.count - 8)..., with: withUnsafeBytes(of: sum.bigEndian) { Array($0) })
    #expect(throws: ResumeDataError.malformed) { try ResumeDataContents(Data(bytes)) }
  }

  @Test("the version's defaults: no draft before 17, then 3, 5 on 18.0, 6 from 18.1; newest is the default")
  func versionDefaults() {
    let drafts = ["16", "17", "18", "18.1", "18.2", "26"].map { IOSVersion($0)!.resumableUploadDraft }
    #expect(drafts == [nil, .v3, .v5, .v6, .v6, .v6])
    #expect(Policy.defaults(for: .newest) == .defaults)
    #expect(DeviceModel().iosVersion == .newest && IOSVersion.newest.description == "26")
    #expect(
      ["11", "19", "25", "27", "17.", "x", "", "17.1.2.3", "17.100"].allSatisfy { IOSVersion($0) == nil })
    #expect(IOSVersion("18.1.2") == IOSVersion("18.1"))
  }
}
