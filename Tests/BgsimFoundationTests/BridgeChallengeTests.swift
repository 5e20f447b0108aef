import BgsimFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A delegate that answers authentication challenges with `answer`, as an app would write it.
final class ChallengeDelegate: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
  var answer: (URLSession.AuthChallengeDisposition, URLCredential?)
  var seen: [String] = []
  var log: [String] = []

  init(answer: (URLSession.AuthChallengeDisposition, URLCredential?)) { self.answer = answer }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    let space = challenge.protectionSpace
    seen.append(
      "\(space.authenticationMethod) \(space.host) \(space.realm ?? "-") \(challenge.previousFailureCount)")
    completionHandler(answer.0, answer.1)
  }

  func urlSession(
    _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
  ) {}

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    if let error = error as NSError? {
      log.append("failed \(error.code)")
    } else {
      log.append("completed \((task.response as? HTTPURLResponse)?.statusCode ?? 0)")
    }
  }
}

/// Makes a default session with the given delegate and downloads the protected file at launch.
final class ChallengeAppDelegate: SimulatedAppDelegate {
  let delegate: URLSessionDelegate
  var session: URLSession!
  init(delegate: URLSessionDelegate) { self.delegate = delegate }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    session = application.makeURLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
    session.downloadTask(with: URL(string: BridgeChallengeTests.url)!).resume()
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) { completionHandler() }
}

@Suite struct BridgeChallengeTests {
  static let url = "https://premium.example.com/episode.mp3"

  func run(_ delegate: URLSessionDelegate) -> Simulation {
    let resource = ServerResource(
      url: SimURL(Self.url)!, size: 1_000_000, etag: "\"e1\"", responseBody: 100,
      auth: [ProtectionSpace(method: .basic, realm: "Premium", user: "alice", password: "s3cret")])
    let sim = Simulation(seed: 1, device: .wifi, server: ServerModel(resources: [resource]))
    sim.installApp { _ in ChallengeAppDelegate(delegate: delegate) }
    sim.schedule(at: .zero) { $0.launchApp() }
    sim.run(until: SimTime(.minutes(10)))
    return sim
  }

  @Test func theDelegateAnswersWithFoundationTypesAndTheRightCredentialGetsTheFile() {
    let d = ChallengeDelegate(
      answer: (.useCredential, URLCredential(user: "alice", password: "s3cret", persistence: .forSession)))
    let sim = run(d)
    #expect(d.seen == ["\(NSURLAuthenticationMethodHTTPBasic) premium.example.com Premium 0"])
    #expect(d.log == ["completed 200"])
    #expect(sim.trace.events.contains { $0.kind == "task.authenticated" })
  }

  @Test func aWrongCredentialIsAskedAgainThenThe401Completes() {
    let d = ChallengeDelegate(
      answer: (.useCredential, URLCredential(user: "alice", password: "guess", persistence: .forSession)))
    _ = run(d)
    #expect(d.seen.map { $0.split(separator: " ").last.map(String.init) ?? "" } == ["0", "1", "2"])
    #expect(d.log == ["completed 401"])
  }

  @Test func cancellingTheChallengeCancelsTheTask() {
    let d = ChallengeDelegate(answer: (.cancelAuthenticationChallenge, nil))
    _ = run(d)
    #expect(d.log == ["failed \(NSURLErrorCancelled)"])
  }

  @Test func aDelegateWithoutTheMethodGetsThe401() {
    let d = PlainDownloadDelegate(container: FileManager.default.temporaryDirectory)
    let sim = run(d)
    #expect(d.log == ["finished episode.mp3 size=100", "completed 401"])
    let answer = sim.trace.events.first { $0.kind == "task.challengeAnswered" }
    #expect(answer?["disposition"] == .string("performDefaultHandling"))
  }
}
