import SimKernel
import Testing

@_spi(FaultInjection) @testable import TransferEngine

/// A correct app that answers authentication challenges with `answer` (task level) and, when
/// `sessionAnswer` is set, implements the session-level method too.
final class ChallengeApp: AppUnderTest, SimURLSessionDelegate {
  let configuration: SessionConfiguration
  var session: SimURLSession?
  var handlers: [String: BackgroundCompletionHandler] = [:]
  var answer: (SimAuthenticationChallenge) -> SimAuthChallengeDisposition
  var sessionAnswer: ((SimAuthenticationChallenge) -> SimAuthChallengeDisposition)?
  var challenges: [SimAuthenticationChallenge] = []
  var completions: [(String, SimURLError?, Int?)] = []
  /// The bug of calling the `handleEvents` completion handler before the events arrive.
  var callsHandlerImmediately = false
  var answersChallenges: Bool { true }

  init(
    _ configuration: SessionConfiguration,
    answer: @escaping (SimAuthenticationChallenge) -> SimAuthChallengeDisposition
  ) {
    self.configuration = configuration
    self.answer = answer
  }

  func didFinishLaunching(_ app: AppContext, reason: LaunchReason) {
    session = try! app.makeSession(configuration: configuration, delegate: self)
  }
  func handleEventsForBackgroundURLSession(
    _ app: AppContext, identifier: String, completionHandler: BackgroundCompletionHandler
  ) {
    if callsHandlerImmediately { return completionHandler() }
    handlers[identifier] = completionHandler
  }
  func urlSessionDidFinishEvents(forBackgroundURLSession session: SimURLSession) {
    handlers.removeValue(forKey: session.identifier)?()
  }
  func urlSession(
    _ session: SimURLSession, downloadTask: SimURLSessionTask, didFinishDownloadingTo location: DownloadedFile
  ) { location.move(to: "Documents/\(downloadTask.name)") }
  func urlSession(_ session: SimURLSession, task: SimURLSessionTask, didCompleteWithError error: SimURLError?)
  { completions.append((task.name, error, task.statusCode)) }
  func urlSession(
    _ session: SimURLSession, task: SimURLSessionTask, didReceive challenge: SimAuthenticationChallenge
  ) -> SimAuthChallengeDisposition {
    challenges.append(challenge)
    return answer(challenge)
  }
  func urlSession(_ session: SimURLSession, didReceive challenge: SimAuthenticationChallenge)
    -> SimAuthChallengeDisposition?
  {
    guard let sessionAnswer else { return nil }
    challenges.append(challenge)
    return sessionAnswer(challenge)
  }
}

/// Authentication challenges (behavior.md, "Authentication challenges").
@Suite("Authentication challenges")
struct ChallengeTests {
  static let url = "https://example.com/private.zip"
  static let right = SimURLCredential(user: "alice", password: "s3cret")
  static let wrong = SimURLCredential(user: "alice", password: "guess")

  /// 10 MB behind Basic (or the given spaces), with a 1 KB 401 body.
  static func resources(_ spaces: [ProtectionSpace]? = nil) -> [ServerResource] {
    var r = Fixture.resource(url, size: 10_000_000, responseBody: 1_000)
    r.auth = spaces ?? [ProtectionSpace(method: .basic, realm: "Private", user: "alice", password: "s3cret")]
    return [r]
  }

  static func simulation(
    _ app: ChallengeApp, spaces: [ProtectionSpace]? = nil, policy: Policy = .defaults
  ) -> Simulation {
    let sim = Simulation(
      seed: 1, device: DeviceModel(network: [Fixture.network(.wifi)], power: [Step(at: .zero, PowerState())]),
      server: ServerModel(resources: resources(spaces)), policy: policy)
    return Fixture.launched(sim, app)
  }

  static func start(_ app: ChallengeApp, _ sim: Simulation, name: String = "p") throws {
    try app.session!.downloadTask(with: url, name: name).resume()
  }

  /// Starts task "p" in `session` to begin a minute from now, and sends the app to the background,
  /// so that its challenge comes while the app is suspended.
  static func startLaterInTheBackground(_ session: SimURLSession, _ sim: Simulation) throws {
    let task = try session.downloadTask(with: url, name: "p")
    task.earliestBeginDate = SimTime(.minutes(1))
    task.resume()
    sim.backgroundApp()
  }

  static func kinds(_ sim: Simulation) -> [String] {
    sim.trace.events.map(\.kind).filter { $0.hasPrefix("task.") || $0.hasPrefix("delegate.") }
  }

  @Test("the right credential: challenged at connect, answered, one more round trip, then the body")
  func rightCredential() throws {
    let app = ChallengeApp(.default()) { _ in .useCredential(Self.right) }
    let sim = Self.simulation(app)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(
      Self.kinds(sim) == [
        "task.created", "task.resume", "task.started", "task.challenged", "delegate.didReceiveChallenge",
        "task.challengeAnswered", "task.authenticated", "delegate.didWriteData", "delegate.didWriteData",
        "delegate.didWriteData", "delegate.didWriteData", "delegate.didWriteData", "delegate.didWriteData",
        "delegate.didWriteData", "delegate.didWriteData", "delegate.didWriteData", "task.finished",
        // The 100% report comes just before the file (progress as on a device).
        "delegate.didWriteData", "delegate.didFinishDownloading", "delegate.didComplete",
      ])
    // Two round trips of 60 ms: the 401, then the request with the credential.
    #expect(Fixture.time(sim, "task.challenged", task: "p") == SimTime(.milliseconds(60)))
    #expect(Fixture.time(sim, "task.authenticated", task: "p") == SimTime(.milliseconds(120)))
    #expect(app.completions.map(\.2) == [200])
    #expect(app.challenges.map(\.previousFailureCount) == [0])
    let challenge = try #require(app.challenges.first)
    #expect(challenge.host == "example.com" && challenge.realm == "Private" && challenge.method == .basic)
  }

  @Test("an app without the delegate method is not asked: default handling, the 401 completes the task")
  func defaultHandling() throws {
    let app = TestApp([.default()])
    let sim = Fixture.simulation(resources: Self.resources(), app: app)
    try app.sessions["default"]!.downloadTask(with: Self.url, name: "p").resume()
    sim.run(until: SimTime(.hours(1)))
    let answered = try #require(Fixture.events(sim, "task.challengeAnswered").first)
    #expect(answered["disposition"] == .string("performDefaultHandling"))
    #expect(app.completions.count == 1 && app.completions[0].1 == nil)
    let finished = try #require(Fixture.events(sim, "task.finished").first)
    #expect(finished["status"] == .int(401))
    #expect(finished["bytes"] == .int(1_000))
    #expect(Fixture.events(sim, "task.authenticated").isEmpty)
  }

  @Test("in a background session, a delegate without the method is not woken: the 401 completes the task")
  func noMethodNoWake() throws {
    let app = TestApp([.background(withIdentifier: "S")])
    let sim = Fixture.simulation(resources: Self.resources(), app: app)
    try Self.startLaterInTheBackground(app.sessions["S"]!, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.events(sim, "delegate.didReceiveChallenge").isEmpty)
    #expect(Fixture.events(sim, "task.finished").first?["status"] == .int(401))
    // One wake only: the completion's.
    #expect(sim.rateLimiterDelays == [.seconds(60)])
  }

  @Test("a wrong credential is challenged again with previousFailureCount + 1, up to challenge.maxFailures")
  func wrongCredential() throws {
    let app = ChallengeApp(.default()) { _ in .useCredential(Self.wrong) }
    var policy = Policy.defaults
    policy.challenge.maxFailures = 3
    let sim = Self.simulation(app, policy: policy)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.challenges.map(\.previousFailureCount) == [0, 1, 2])
    #expect(app.challenges.map(\.failureResponseStatus) == [nil, 401, 401])
    #expect(app.completions.count == 1 && app.completions[0].1 == nil && app.completions[0].2 == 401)
    // Each credential costs a round trip: 60 ms for the 401, three more, then 2 ms for the 1 KB
    // 401 body at 4 Mbps.
    #expect(Fixture.time(sim, "task.finished", task: "p") == SimTime(.milliseconds(242)))
  }

  @Test("a wrong credential, then the right one: the second challenge counts one failure, then the body")
  func wrongThenRight() throws {
    let app = ChallengeApp(.default()) {
      $0.previousFailureCount == 0 ? .useCredential(Self.wrong) : .useCredential(Self.right)
    }
    let sim = Self.simulation(app)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.challenges.map(\.previousFailureCount) == [0, 1])
    #expect(app.completions.map(\.2) == [200])
  }

  @Test("cancelAuthenticationChallenge cancels the task with -999")
  func cancel() throws {
    let app = ChallengeApp(.default()) { _ in .cancelAuthenticationChallenge }
    let sim = Self.simulation(app)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.completions.count == 1)
    #expect(app.completions[0].1?.code == .cancelled)
    #expect(Fixture.events(sim, "task.cancelled").count == 1)
  }

  @Test("rejectProtectionSpace moves to the next space the server offers; after the last, the 401")
  func reject() throws {
    let spaces = [
      ProtectionSpace(method: .negotiate, realm: "Corp", user: "alice", password: "s3cret"),
      ProtectionSpace(method: .basic, realm: "Corp", user: "alice", password: "s3cret"),
    ]
    let app = ChallengeApp(.default()) { _ in .rejectProtectionSpace }
    let sim = Self.simulation(app, spaces: spaces)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.challenges.map(\.method) == [.negotiate, .basic])
    #expect(app.completions.map(\.2) == [401])
    // Both challenges come from the one 401: no round trip between them.
    #expect(
      Fixture.events(sim, "task.challenged").map(\.time) == [
        SimTime(.milliseconds(60)), SimTime(.milliseconds(60)),
      ])
  }

  @Test("a session-level challenge goes to the session delegate when it implements the method")
  func sessionLevel() throws {
    let spaces = [ProtectionSpace(method: .ntlm, realm: "", user: "alice", password: "s3cret")]
    let app = ChallengeApp(.default()) { _ in .cancelAuthenticationChallenge }
    app.sessionAnswer = { _ in .useCredential(Self.right) }
    let sim = Self.simulation(app, spaces: spaces)
    try Self.start(app, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.completions.map(\.2) == [200])
    #expect(Fixture.events(sim, "delegate.didReceiveChallenge").first?["level"] == .string("session"))
    // Without the session method, the task delegate is asked (and here cancels).
    let taskOnly = ChallengeApp(.default()) { _ in .cancelAuthenticationChallenge }
    let sim2 = Self.simulation(taskOnly, spaces: spaces)
    try Self.start(taskOnly, sim2)
    sim2.run(until: SimTime(.hours(1)))
    #expect(taskOnly.completions.first?.1?.code == .cancelled)
  }

  @Test(
    "in a background session the daemon wakes a suspended app to answer, and the wake counts for the rate limiter"
  )
  func backgroundWake() throws {
    let app = ChallengeApp(.background(withIdentifier: "S")) { _ in .useCredential(Self.right) }
    let sim = Self.simulation(app)
    try Self.startLaterInTheBackground(app.session!, sim)
    sim.run(until: SimTime(.hours(1)))
    let kinds = sim.trace.events.map(\.kind).filter {
      [
        "app.resume", "ratelimiter.wake", "delegate.handleEvents", "delegate.didReceiveChallenge",
        "app.suspend",
        "delegate.didFinishEvents", "delegate.didComplete", "task.challenged",
      ].contains($0)
    }
    #expect(
      kinds == [
        "app.suspend", "task.challenged", "ratelimiter.wake", "app.resume", "delegate.handleEvents",
        "delegate.didReceiveChallenge", "delegate.didFinishEvents", "app.suspend", "ratelimiter.wake",
        "app.resume", "delegate.handleEvents", "delegate.didComplete", "delegate.didFinishEvents",
        "app.suspend",
      ])
    #expect(sim.rateLimiterDelays == [.seconds(60), .seconds(120)])
    #expect(app.completions.map(\.2) == [200])
  }

  @Test("a terminated app is relaunched in the background to answer")
  func relaunch() throws {
    let app = ChallengeApp(.background(withIdentifier: "S")) { _ in .useCredential(Self.right) }
    let sim = Self.simulation(app)
    try Self.startLaterInTheBackground(app.session!, sim)
    sim.schedule(at: SimTime(.seconds(30))) { $0.terminateApp() }
    sim.run(until: SimTime(.hours(1)))
    let launch = try #require(Fixture.events(sim, "app.launch").last)
    #expect(launch["reason"] == .string("background"))
    #expect(launch.time == SimTime(.minutes(1)) + .milliseconds(60))
    #expect(app.completions.map(\.2) == [200])
  }

  @Test("no answer within challenge.answerTimeout (no launch events) fails the task with -1001")
  func answerTimeout() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.sessionSendsLaunchEvents = false
    let app = ChallengeApp(configuration) { _ in .useCredential(Self.right) }
    var policy = Policy.defaults
    policy.challenge.answerTimeout = .seconds(90)
    let sim = Self.simulation(app, policy: policy)
    try Self.startLaterInTheBackground(app.session!, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.challenges.isEmpty)
    let failed = try #require(Fixture.events(sim, "task.failed").first)
    #expect(failed["code"] == .int(-1001))
    #expect(failed.time == SimTime(.minutes(1)) + .milliseconds(60) + .seconds(90))
    #expect(Fixture.events(sim, "task.challengeTimedOut").count == 1)
    #expect(Fixture.events(sim, "ratelimiter.wake").isEmpty)
  }

  @Test("without launch events, the user's launch delivers the queued challenge before the timeout")
  func answeredAtUserLaunch() throws {
    var configuration = SessionConfiguration.background(withIdentifier: "S")
    configuration.sessionSendsLaunchEvents = false
    let app = ChallengeApp(configuration) { _ in .useCredential(Self.right) }
    let sim = Self.simulation(app)
    try Self.startLaterInTheBackground(app.session!, sim)
    sim.schedule(at: SimTime(.minutes(2))) { $0.launchApp() }
    sim.run(until: SimTime(.hours(1)))
    #expect(Fixture.time(sim, "task.challengeAnswered", task: "p") == SimTime(.minutes(2)))
    #expect(app.completions.map(\.2) == [200])
  }

  @Test("a challenge wakes the app once: an app that suspends without taking it is not woken again for it")
  func oneWakePerChallenge() throws {
    let app = ChallengeApp(.background(withIdentifier: "S")) { _ in .useCredential(Self.right) }
    app.callsHandlerImmediately = true
    let sim = Self.simulation(app)
    try Self.startLaterInTheBackground(app.session!, sim)
    sim.run(until: SimTime(.hours(1)))
    #expect(app.challenges.isEmpty)
    #expect(Fixture.events(sim, "lint").first?["rule"] == .string("completionHandlerCalledEarly"))
    // The challenge's wake, then the -1001 failure's.
    let wakes = Fixture.events(sim, "ratelimiter.wake").map(\.time)
    let timedOut = try #require(Fixture.time(sim, "task.challengeTimedOut", task: "p"))
    #expect(wakes == [SimTime(.minutes(1)) + .milliseconds(60), timedOut])
  }

  @Test("an engine that skips the challenge breaks protectedResourceNeedsCredential")
  func invariantCatchesSkippedChallenge() throws {
    var violations: [InvariantViolation] = []
    EngineFaultInjection.$fault.withValue(.skipsAuthentication) {
      let app = ChallengeApp(.default()) { _ in .useCredential(Self.right) }
      let sim = Simulation(
        seed: 1,
        device: DeviceModel(network: [Fixture.network(.wifi)], power: [Step(at: .zero, PowerState())]),
        server: ServerModel(resources: Self.resources()))
      sim.checksInvariants = true
      sim.onInvariantViolation = { violations.append($0) }
      sim.install(app)
      sim.run(until: .zero)
      sim.launchApp()
      try? Self.start(app, sim)
      sim.run(until: SimTime(.hours(1)))
    }
    #expect(violations.map(\.invariant) == [.protectedResourceNeedsCredential])
  }
}
