import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `async` convenience methods (foundation-bridge.md, "The async methods"). On Linux they
/// cannot be overridden and use the superclass's own networking, whose only protocol is the
/// bridge's: inside `Simulation.run(awaiting:)` their requests become tasks of the simulation;
/// outside it (and always for `download(for:)`) they fail at once with -1002, without touching
/// the network or the simulation.
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
    /// Inside `Simulation.run(awaiting:)` each awaited call is a task of the simulation, answered
    /// when the simulation has carried it out; the same awaits give the same trace on every run.
    @Test func theAsyncMethodsAwaitTheSimulationDeterministically() async throws {
      func oneRun() async throws -> (String, [Int]) {
        let (sim, session) = session()
        let start = sim.now
        let url = URL(string: Self.url)!
        let (data, response) = try await sim.run(awaiting: {
          try await session.data(for: URLRequest(url: url))
        })
        // Not simulated on Linux (see the documentation): refused at once, even here.
        let refused = await refusal {
          _ = try await sim.run(awaiting: { try await session.download(for: URLRequest(url: url)) })
        }
        #expect(refused?.code == NSURLErrorUnsupportedURL)
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        let post = request
        let (_, uploaded) = try await sim.run(awaiting: {
          try await session.upload(for: post, from: Data(count: 500))
        })
        let body = FileManager.default.temporaryDirectory.appendingPathComponent(
          "bgsim-async-\(UUID().uuidString)")
        try Data(count: 700).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        let (_, fromFile) = try await sim.run(awaiting: {
          try await session.upload(for: post, fromFile: body)
        })
        let statuses = [response, uploaded, fromFile].map { ($0 as? HTTPURLResponse)?.statusCode ?? 0 }
        #expect(data.count == 1_000)
        #expect(sim.trace.events.filter { $0.kind == "task.finished" }.count == 3)
        #expect(sim.now > start, "the simulation carried the transfers out")
        return (sim.trace.jsonLines, statuses)
      }
      let first = try await oneRun()
      let second = try await oneRun()
      #expect(first.1 == [200, 200, 200])
      #expect(first.0 == second.0)
    }

    /// A background session refuses them, as it refuses every completion-handler call: an error
    /// and the lint, never a transfer.
    @Test func aBackgroundSessionRefusesTheAsyncMethods() async throws {
      let server = ServerModel(resources: [ServerResource(url: SimURL(Self.url)!, size: 1_000)])
      let sim = Simulation(seed: 2, device: .wifi, server: server)
      sim.installApp { _ in DataApp(background: true) }
      sim.launchApp()
      sim.run(until: SimTime(.seconds(1)))
      let session: URLSession = (sim.currentAppDelegate as! DataApp).session
      let error = await refusal {
        _ = try await sim.run(awaiting: {
          try await session.data(for: URLRequest(url: URL(string: Self.url)!))
        })
      }
      #expect(error?.domain == NSURLErrorDomain)
      #expect(
        sim.trace.events.contains {
          $0.kind == "lint" && $0["rule"]?.description == "completionHandlerInBackgroundSession"
        })
      #expect(!sim.trace.events.contains { $0.kind == "task.finished" })
    }

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
