import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An unmodified Foundation data delegate: collects the body and records what it was told.
final class PlainDataDelegate: NSObject, URLSessionDataDelegate, URLSessionBackgroundEventsDelegate,
  @unchecked Sendable
{
  var chunks: [Int] = []
  var allZero = true
  var received: [Int64] = []
  var tasks: [ObjectIdentifier] = []
  var completions: [(status: Int, domain: String?, code: Int?, bytes: Int64)] = []
  var isDataTask: [Bool] = []

  /// What `didReceive response` answers, and the calls in order (`response <status>`, `body`
  /// for the first chunk, `complete <code>`).
  var disposition: URLSession.ResponseDisposition = .allow
  var order: [String] = []
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    order.append("response \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    completionHandler(disposition)
  }
  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    if chunks.isEmpty { order.append("body") }
    chunks.append(data.count)
    // The first chunks only: scanning 200 MB a byte at a time is slow in a debug build.
    if chunks.count <= 4, allZero { allZero = !data.contains { $0 != 0 } }
    tasks.append(ObjectIdentifier(dataTask))
  }
  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let nsError = error as NSError?
    order.append("complete \(nsError?.code ?? 0)")
    completions.append(
      (
        (task.response as? HTTPURLResponse)?.statusCode ?? 0, nsError?.domain, nsError?.code,
        task.countOfBytesReceived
      ))
    isDataTask.append(task is URLSessionDataTask)
    tasks.append(ObjectIdentifier(task))
  }
  /// The stored `handleEvents` completion handler, called here as seed 001 does.
  var finishEvents: (() -> Void)?
  func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
    let handler = finishEvents
    finishEvents = nil
    DispatchQueue.main.async { handler?() }
  }
}

/// An app with one session (background or default) and the plain data delegate.
final class DataApp: SimulatedAppDelegate {
  let delegate = PlainDataDelegate()
  let background: Bool
  var session: URLSession!
  init(background: Bool) { self.background = background }
  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    let configuration: URLSessionConfiguration =
      background ? .simulatedBackground(withIdentifier: "api") : .default
    session = application.makeURLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }
  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { delegate.finishEvents = completionHandler }
}

@Suite struct BridgeDataTaskTests {
  static let small = "https://example.com/feed.json"
  static let big = "https://example.com/big"
  static let empty = "https://example.com/empty"

  /// Runs `action` on the first launch's session at 1 s, and `then` on the simulation at 2 s.
  func run(
    background: Bool, until: SimDuration = .minutes(5), then: ((Simulation) -> Void)? = nil,
    _ action: @escaping (URLSession) -> Void
  ) -> (Simulation, DataApp) {
    let server = ServerModel(resources: [
      ServerResource(url: SimURL(Self.small)!, size: 200_000, etag: "\"f1\""),
      ServerResource(url: SimURL(Self.big)!, size: 200_000_000, etag: "\"b1\""),
      ServerResource(url: SimURL(Self.empty)!, size: 0, status: 204),
    ])
    let sim = Simulation(seed: 7, device: .wifi, server: server)
    var first: DataApp?
    sim.installApp { _ in
      let app = DataApp(background: background)
      if first == nil { first = app }
      return app
    }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.schedule(at: SimTime(.seconds(1))) { sim in action((sim.currentAppDelegate as! DataApp).session) }
    if let then { sim.schedule(at: SimTime(.seconds(2)), then) }
    sim.run(until: SimTime(until))
    return (sim, first!)
  }

  func lints(_ sim: Simulation) -> [String] {
    sim.trace.events.filter { $0.kind == "lint" }.compactMap { $0["rule"]?.description }
  }

  /// The body arrives in chunks of at most 64 KiB, zeros, then the completion: one task object.
  @Test func aDataTaskDeliversItsBodyInChunksThenCompletes() {
    var made: URLSessionDataTask?
    let (sim, app) = run(background: false) { session in
      made = session.dataTask(with: URL(string: Self.small)!)
      made?.resume()
    }
    let d = app.delegate
    #expect(d.chunks == [65_536, 65_536, 65_536, 3_392])
    #expect(d.allZero)
    #expect(d.completions.count == 1)
    #expect(d.completions.first?.status == 200)
    #expect(d.completions.first?.code == nil)
    #expect(d.completions.first?.bytes == 200_000)
    #expect(d.isDataTask == [true])
    #expect(Set(d.tasks).count == 1)
    #expect(d.tasks.first == made.map(ObjectIdentifier.init))
    let response = made?.response as? HTTPURLResponse
    #expect(response?.value(forHTTPHeaderField: "Content-Length") == "200000")
    #expect(made?.state == .completed)
    #expect(sim.trace.events.contains { $0.kind == "task.created" && $0["taskKind"] == "data" })
    #expect(lints(sim).isEmpty)
  }

  /// In a background session: the engine's lint, and it works while the app runs.
  @Test func aBackgroundDataTaskIsLintedAndWorksWhileTheAppRuns() {
    let (sim, app) = run(background: true) { session in
      session.dataTask(with: URLRequest(url: URL(string: Self.small)!)).resume()
    }
    #expect(lints(sim) == ["dataTaskInBackgroundSession"])
    #expect(app.delegate.completions.map(\.code) == [nil])
    #expect(app.delegate.chunks.reduce(0, +) == 200_000)
  }

  /// Suspended before it finished: -997 in NSURLErrorDomain, delivered when the app is back.
  @Test func aBackgroundDataTaskFailsWithMinus997OnceTheAppIsSuspended() {
    let (sim, app) = run(
      background: true, until: .minutes(10),
      then: { sim in
        sim.backgroundApp()
        sim.schedule(at: SimTime(.minutes(5))) { $0.launchApp() }
      }
    ) { session in
      session.dataTask(with: URL(string: Self.big)!).resume()
    }
    #expect(app.delegate.chunks.isEmpty)
    #expect(app.delegate.completions.count == 1)
    #expect(app.delegate.completions.first?.domain == NSURLErrorDomain)
    #expect(app.delegate.completions.first?.code == NSURLErrorBackgroundSessionWasDisconnected)
    #expect(sim.trace.events.contains { $0.kind == "task.failed" && $0["code"] == .int(-997) })
    #expect(lints(sim) == ["dataTaskInBackgroundSession"])
  }

  /// A default session gives the completion handler the whole body and skips the delegate.
  @Test func aDefaultSessionCallsTheDataHandlerWithTheBody() {
    let log = HandlerLog()
    let (sim, app) = run(background: false) { session in
      session.dataTask(with: URL(string: Self.small)!) { data, response, error in
        log.entries.append(
          "handler body=\(data?.count ?? -1) status=\((response as? HTTPURLResponse)?.statusCode ?? 0) "
            + "error=\(error == nil)")
      }.resume()
    }
    #expect(log.entries == ["handler body=200000 status=200 error=true"])
    #expect(app.delegate.chunks.isEmpty)
    #expect(app.delegate.completions.isEmpty)
    #expect(lints(sim).isEmpty)
  }

  /// A background session refuses the handler as for every factory: lint, -1002, no transfer.
  @Test func aBackgroundSessionRefusesTheDataHandler() {
    let log = HandlerLog()
    let (sim, _) = run(background: true) { session in
      session.dataTask(with: URL(string: Self.small)!) { data, _, error in
        log.entries.append("handler body=\(data?.count ?? -1) error=\((error as NSError?)?.code ?? 0)")
      }.resume()
    }
    #expect(log.entries == ["handler body=-1 error=\(NSURLErrorUnsupportedURL)"])
    #expect(lints(sim) == ["completionHandlerInBackgroundSession"])
    #expect(!sim.trace.events.contains { $0.kind.hasPrefix("task.") })
  }

  /// A handler's body over 64 MiB is not made in memory: the task fails with -1103 instead.
  @Test func aHandlerBodyOverTheLimitFailsWithDataLengthExceedsMaximum() {
    let log = HandlerLog()
    let (sim, _) = run(background: false) { session in
      session.dataTask(with: URL(string: Self.big)!) { data, _, error in
        log.entries.append("handler body=\(data?.count ?? -1) error=\((error as NSError?)?.code ?? 0)")
      }.resume()
    }
    #expect(log.entries == ["handler body=-1 error=\(NSURLErrorDataLengthExceedsMaximum)"])
    let note = sim.trace.events.first { $0.kind == "bridge.bodyTooLarge" }
    #expect(note?["bytes"] == .int(200_000_000))
    #expect(note?["limit"] == .int(64 << 20))
  }

  /// `getTasksWithCompletionHandler` lists a running data task in its first array.
  @Test func getTasksListsDataTasksFirst() {
    let log = HandlerLog()
    _ = run(background: false) { session in
      session.dataTask(with: URL(string: Self.big)!).resume()
      session.getTasksWithCompletionHandler { data, uploads, downloads in
        log.entries.append("data=\(data.count) uploads=\(uploads.count) downloads=\(downloads.count)")
      }
    }
    #expect(log.entries == ["data=1 uploads=0 downloads=0"])
  }

  /// The delegate is asked about the response once, before the body, and may cancel.
  @Test func theResponseIsAskedBeforeTheBody() {
    let (sim, app) = run(background: false) { session in
      session.dataTask(with: URL(string: Self.small)!).resume()
    }
    #expect(app.delegate.order == ["response 200", "body", "complete 0"])
    #expect(!sim.trace.events.contains { $0.kind == "bridge.responseCancelled" })
  }

  @Test func cancellingAtTheResponseSkipsTheBodyAndFailsWithMinus999() {
    let (sim, app) = run(
      background: false, then: nil,
      { session in
        (session.delegate as? PlainDataDelegate)?.disposition = .cancel
        session.dataTask(with: URL(string: Self.small)!).resume()
      })
    #expect(app.delegate.order == ["response 200", "complete \(NSURLErrorCancelled)"])
    #expect(app.delegate.chunks.isEmpty)
    #expect(sim.trace.events.contains { $0.kind == "bridge.responseCancelled" })
  }

  /// A body of no bytes: the response is asked before the completion.
  @Test func anEmptyBodyStillGetsTheResponse() {
    let (_, app) = run(background: false) { session in
      session.dataTask(with: URL(string: Self.empty)!).resume()
    }
    #expect(app.delegate.order == ["response 204", "complete 0"])
  }

  /// Data tasks, a cancelled response and upload progress: the same app and seed give a
  /// byte-identical trace.
  @Test func theSameRunGivesTheSameTrace() {
    func once() -> String {
      run(background: true) { session in
        session.dataTask(with: URL(string: Self.small)!).resume()
        session.dataTask(with: URL(string: Self.empty)!).resume()
        var request = URLRequest(url: URL(string: Self.small)!)
        request.httpMethod = "POST"
        session.uploadTask(with: request, from: Data(count: 3_000_000)).resume()
      }.0.trace.jsonLines
    }
    let first = once()
    #expect(first.contains("\"taskKind\": \"data\""))
    #expect(first == once())
  }
}
