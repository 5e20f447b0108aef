import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// Whether a session holds a question for the app (`DaemonSession+Questions.swift`), which every
/// wake check asks: the questions are kept beside the queue and looked through alone, so they
/// must follow the queue through queueing, delivery and events put back.
@Suite("Rules: a session's questions")
struct SessionQuestionsTests {
  @Test("a delayed request is seen while queued, gone once taken, seen again when put back")
  func delayedRequestFollowsTheQueue() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    let feed = fixture.task("feed", .download, in: record)
    let other = fixture.task("other", .download, in: record)
    record.owesWake(true)
    record.queue(.didFinishDownloading(other))
    #expect(!record.awaitsDelayedRequestAnswer(wakesApp: true))
    record.queue(.willBeginDelayedRequest(feed))
    record.queue(.didComplete(other, error: nil))
    #expect(record.pendingQuestions.count == 1)
    #expect(record.awaitsDelayedRequestAnswer(wakesApp: true))
    #expect(!record.awaitsDelayedRequestAnswer(wakesApp: false))

    let batch = record.takePending()
    #expect(record.pendingQuestions.isEmpty)
    #expect(!record.awaitsDelayedRequestAnswer(wakesApp: true))
    // The app stopped after the first event: the rest, the question among them, goes back.
    record.putBack(batch[1...])
    #expect(record.pendingQuestions.count == 1)
    #expect(record.awaitsDelayedRequestAnswer(wakesApp: true))
    // Put back without a question: nothing to answer.
    _ = record.takePending()
    record.putBack(batch[2...])
    #expect(record.pendingQuestions.isEmpty)
    #expect(!record.awaitsDelayedRequestAnswer(wakesApp: true))
    withExtendedLifetime(fixture.engine) {}
  }

  @Test("a challenge waiting for its answer is seen until its wake")
  func challengeFollowsTheQueue() {
    let fixture = EngineFixture()
    let record = fixture.session("bg")
    let task = fixture.task("secure", .download, in: record)
    fixture.engine.tasks[task].challenge.challenged(space: 0)
    let challenge = SimAuthenticationChallenge(
      host: "example.com", method: .basic, realm: "", previousFailureCount: 0)
    record.queue(.didReceiveChallenge(task, challenge, generation: task.machine.generation))
    #expect(record.awaitsChallengeAnswer())
    record.challengesWokeApp(in: fixture.engine.tasks)
    #expect(!record.awaitsChallengeAnswer())
    withExtendedLifetime(fixture.engine) {}
  }
}
