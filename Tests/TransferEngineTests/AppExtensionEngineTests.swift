import SimKernel
import Testing
import TransferEngine

/// App extensions through the engine's Swift API (behavior.md, "App extensions"), with the
/// invariants checked at every event.
@Suite("App extensions")
struct AppExtensionEngineTests {
  /// Does nothing: bgsim never calls an extension's delegate.
  final class ExtensionDelegate: SimURLSessionDelegate {
    var calls = 0
    func urlSession(
      _ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?
    ) {
      calls += 1
    }
  }

  static let shared = SessionConfiguration(
    identifier: "ShareUploads", kind: .background, sharedContainerIdentifier: "group.x")

  /// A simulation with `app` installed and not running.
  static func world(app: TestApp) -> Simulation {
    let sim = Simulation(
      seed: 1, device: DeviceModel(network: [Fixture.network(.wifi, down: 8, up: 8)]),
      server: ServerModel(resources: [
        ServerResource(
          url: Fixture.url("https://example.com/up"), size: 0, responseBody: 1000, method: "POST"),
        Fixture.resource("https://example.com/a.bin", size: 1_000_000),
      ]))
    sim.checksInvariants = true
    sim.onInvariantViolation = { Issue.record("\($0)") }
    sim.install(app)
    return sim
  }

  @Test("events of an extension's session reach the relaunched containing app, never the extension")
  func eventsGoToContainingApp() throws {
    let app = TestApp([Self.shared])
    let sim = Self.world(app: app)
    let delegate = ExtensionDelegate()
    sim.openExtension("Share")
    let session = try sim.makeSession(inExtension: "Share", configuration: Self.shared, delegate: delegate)
    #expect(session.owner == .appExtension("Share"))
    let upload = try session.uploadTask(with: "https://example.com/up", fromFileOfSize: 4_000_000, name: "up")
    upload.resume()
    let download = try session.downloadTask(with: "https://example.com/a.bin", name: "a")
    download.resume()
    sim.schedule(at: SimTime(.seconds(1))) { $0.closeExtension("Share") }
    sim.run(until: SimTime(.hours(1)))
    #expect(delegate.calls == 0)
    #expect(!sim.extensionIsRunning("Share"))
    #expect(app.completions.map(\.0).sorted() == ["a", "up"])
    #expect(app.completions.allSatisfy { $0.1 == nil })
    let launch = try #require(Fixture.events(sim, "app.launch").first)
    #expect(launch["reason"] == .string("background"))
    #expect(Fixture.events(sim, "delegate.handleEvents").first?["session"] == .string("ShareUploads"))
    let file = try #require(Fixture.events(sim, "delegate.didFinishDownloading").first)
    #expect(file["sharedContainer"] == .string("group.x"))
    #expect(Fixture.events(sim, "app.completionHandlerCalled").count == 1)
    #expect(sim.invariantViolation == nil)
  }

  @Test("an extension cannot make sessions or tasks once it has ended")
  func endedExtensionRefuses() throws {
    let sim = Self.world(app: TestApp([]))
    #expect(throws: SimAPIMisuse.self) {
      try sim.makeSession(inExtension: "Share", configuration: Self.shared, delegate: ExtensionDelegate())
    }
    sim.openExtension("Share")
    let delegate = ExtensionDelegate()
    let session = try sim.makeSession(inExtension: "Share", configuration: Self.shared, delegate: delegate)
    sim.closeExtension("Share")
    sim.run(until: SimTime(.minutes(1)))
    #expect(throws: SimAPIMisuse.self) {
      try session.downloadTask(with: "https://example.com/a.bin", name: "late")
    }
  }

  @Test("an extension's default session is refused: bgsim models its background sessions only")
  func defaultSessionRefused() {
    let sim = Self.world(app: TestApp([]))
    sim.openExtension("Share")
    #expect(throws: SimAPIMisuse.self) {
      try sim.makeSession(inExtension: "Share", configuration: .default(), delegate: ExtensionDelegate())
    }
  }

  @Test("a restart ends a running extension")
  func rebootEndsExtension() {
    let sim = Self.world(app: TestApp([]))
    sim.openExtension("Share")
    sim.schedule(at: SimTime(.seconds(2))) { $0.rebootDevice() }
    sim.run(until: SimTime(.minutes(1)))
    #expect(!sim.extensionIsRunning("Share"))
    #expect(Fixture.events(sim, "extension.terminate").first?["reason"] == .string("reboot"))
  }
}
