import ScenarioKit
import SimKernel
import Testing

@testable import FuzzKit

/// `bgsim fuzz` must reach the behaviours added after version 1, not only accept them: over a
/// few hundred seeds each shows up in some trace.
@Suite struct GeneratedBehaviourTests {
  /// Each event as its kind and fields, for every seed of 1...300.
  static let traces: [[(kind: String, fields: [String: String])]] = (UInt64(1)...300).map { seed in
    ScenarioRunner.run(ScenarioGenerator.scenario(seed: seed)).trace.events.map { event in
      (event.kind, Dictionary(event.fields.map { ($0.key, "\($0.value)") }, uniquingKeysWith: { a, _ in a }))
    }
  }

  /// Runs with an event matching `pattern`: a kind, then `key=value` pairs (`*`: any value,
  /// `inv-*`: any value with that prefix).
  static func seen(_ pattern: String) -> Int {
    let parts = pattern.split(separator: " ").map(String.init)
    let pairs = parts.dropFirst().map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
    return traces.filter { events in
      events.contains { event in
        event.kind == parts[0]
          && pairs.allSatisfy { pair in
            guard let value = event.fields[pair[0]] else { return false }
            guard pair.count == 2 else { return true }
            if pair[1].hasSuffix("*") { return value.hasPrefix(pair[1].dropLast()) }
            return value == pair[1]
          }
      }
    }.count
  }

  @Test(arguments: [
    "app.beginBackgroundTask", "app.endBackgroundTask", "app.backgroundTaskExpired",
    "app.terminate reason=watchdog", "lint rule=backgroundTaskNotEnded", "device.reboot", "device.unlock",
    "app.terminate reason=reboot", "task.created task=* taskKind=data",
    "lint rule=dataTaskInBackgroundSession",
    "task.failed task=* code=-997", "task.deferred task=* reason=deviceLocked",
    "task.lost task=* reason=deviceRestarted", "task.suspend", "task.resume",
    "delegate.didBecomeInvalid session=* error=none", "task.created task=inv-*",
    "task.deferred task=* reason=delayedRequest", "delegate.willBeginDelayedRequest task=*",
    "task.delayedRequestAnswered task=* disposition=continueLoading",
    "task.delayedRequestAnswered task=* disposition=useNewRequest",
    "task.delayedRequestAnswered task=* disposition=cancel",
    "task.restartedFromZero task=* reason=uploadNotResumable",
    "task.challenged task=* level=task", "task.challenged task=* level=session",
    "delegate.didReceiveChallenge task=*", "task.authenticated task=*",
    "task.challenged task=* previousFailureCount=1",
    "task.challengeAnswered task=* disposition=useCredential",
    "task.challengeAnswered task=* disposition=performDefaultHandling",
    "task.challengeAnswered task=* disposition=cancelAuthenticationChallenge",
    "task.challengeAnswered task=* disposition=rejectProtectionSpace", "task.challengeTimedOut task=*",
    "app.busy callback=didFinishDownloadingTo", "app.busy callback=handleEventsForBackgroundURLSession",
    "lint rule=slowCallback",
    "extension.launch name=Share", "extension.terminate name=Share reason=system",
    "task.created task=ext* session=ExtUploads", "session.connectFailed session=* code=-995",
    "session.connectFailed session=* code=-996", "lint rule=extensionSessionWithoutSharedContainer",
    "lint rule=sessionInUseByAnotherProcess", "delegate.handleEvents session=ExtUploads",
    "delegate.didComplete task=ext*",
    "continued.start", "continued.queued", "continued.refused error=immediateRunIneligible",
    "continued.progress", "continued.end result=succeeded", "continued.end result=expired",
    "continued.end result=cancelledByUser", "lint rule=continuedTaskExpired",
    "lint rule=apiUnavailable api=cancel(byProducingResumeData:)",
    "task.restartedFromZero task=* reason=uploadDraftMismatch", "continued.progress total=4",
  ])
  func generated(_ prefix: String) {
    #expect(Self.seen(prefix) > 0, "no fuzzed run of seeds 1-300 has '\(prefix)'")
  }

  /// Upload resume data: some fuzzed upload is cancelled or fails with resume data.
  @Test func uploadResumeDataIsGenerated() {
    let runs = Self.traces.filter { events in
      let uploads = Set(
        events.filter { $0.kind == "task.created" && $0.fields["taskKind"] == "upload" }.compactMap {
          $0.fields["task"]
        })
      return events.contains { event in
        ["task.cancelled", "task.failed"].contains(event.kind) && event.fields["resumeDataOffset"] != nil
          && uploads.contains(event.fields["task"] ?? "")
      }
    }
    #expect(!runs.isEmpty, "no fuzzed run of seeds 1-300 gives an upload resume data")
  }
}
