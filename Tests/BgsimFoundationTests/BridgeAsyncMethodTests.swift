import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `async` convenience methods are not simulated (foundation-bridge.md, "The async methods").
/// On Linux they cannot be overridden and use the superclass's own networking: the bridge makes
/// every such request fail at once with -1002, without touching the network or the simulation.
@Suite struct BridgeAsyncMethodTests {
  static let url = "https://example.com/feed.json"

  func session() -> (Simulation, URLSession) {
    let server = ServerModel(resources: [ServerResource(url: SimURL(Self.url)!, size: 1_000)])
    let sim = Simulation(seed: 2, device: .wifi, server: server)
    sim.installApp { _ in DataApp(background: false) }
    sim.launchApp()
    sim.run(until: SimTime(.seconds(1)))
    return (sim, (sim.currentAppDelegate as! DataApp).session)
  }

  func refusal(_ call: () async throws -> Void) async -> NSError? {
    do {
      try await call()
      return nil
    } catch {
      return error as NSError
    }
  }

  #if canImport(FoundationNetworking)
    @Test func theAsyncMethodsFailWithoutReachingTheNetwork() async throws {
      let (sim, session) = session()
      let url = URL(string: Self.url)!
      var upload = URLRequest(url: url)
      upload.httpMethod = "POST"
      let body = FileManager.default.temporaryDirectory.appendingPathComponent(
        "bgsim-async-\(UUID().uuidString)")
      try Data(count: 10).write(to: body)
      defer { try? FileManager.default.removeItem(at: body) }
      let errors = [
        await refusal { _ = try await session.data(from: url) },
        await refusal { _ = try await session.data(for: URLRequest(url: url)) },
        await refusal { _ = try await session.download(from: url) },
        await refusal { _ = try await session.download(for: URLRequest(url: url)) },
        await refusal { _ = try await session.upload(for: upload, fromFile: body) },
        await refusal { _ = try await session.upload(for: upload, from: Data(count: 10)) },
      ]
      for error in errors {
        #expect(error?.domain == NSURLErrorDomain)
        #expect(error?.code == NSURLErrorUnsupportedURL)
        // Answered by the bridge's protocol, not by a real connection attempt.
        #expect(error?.userInfo["bgsimNotSimulated"] as? Bool == true)
      }
      #expect(!sim.trace.events.contains { $0.kind.hasPrefix("task.") })
    }

    /// A web socket task fails with -1002 and reaches no network.
    @Test(.timeLimit(.minutes(1))) func aWebSocketTaskFailsWithoutReachingTheNetwork() async throws {
      let (_, session) = session()
      let socket = session.webSocketTask(with: URL(string: "wss://example.com/live")!)
      socket.resume()
      let error = await refusal { _ = try await socket.receive() }
      // -1002 whether the toolchain's libcurl lacks web sockets (this one: refused before a
      // protocol is chosen) or the bridge's protocol answers.
      #expect(error?.domain == NSURLErrorDomain)
      #expect(error?.code == NSURLErrorUnsupportedURL)
      socket.cancel()
    }
  #endif

  /// A streamed upload is refused in simulated time, through the delegate, like any refused task.
  @Test func aStreamedUploadIsRefusedThroughTheDelegate() {
    let server = ServerModel(resources: [ServerResource(url: SimURL(Self.url)!, size: 1_000)])
    let sim = Simulation(seed: 2, device: .wifi, server: server)
    sim.installApp { _ in DataApp(background: false) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in
      var request = URLRequest(url: URL(string: Self.url)!)
      request.httpMethod = "POST"
      (sim.currentAppDelegate as! DataApp).session.uploadTask(withStreamedRequest: request).resume()
    }
    sim.run(until: SimTime(.minutes(1)))
    let delegate = (sim.currentAppDelegate as! DataApp).delegate
    #expect(delegate.completions.map(\.code) == [NSURLErrorUnsupportedURL])
    #expect(sim.trace.events.contains { $0.kind == "bridge.taskRefused" && $0.time == SimTime(.seconds(1)) })
    #expect(!sim.trace.events.contains { $0.kind.hasPrefix("task.") })
  }
}
