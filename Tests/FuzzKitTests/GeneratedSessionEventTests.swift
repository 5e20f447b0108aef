import Testing

@testable import FuzzKit

/// `bgsim fuzz` reaches resumable uploads: some fuzzed upload retries from an offset.
@Suite struct GeneratedSessionEventTests {
  @Test func someUploadResumesFromItsOffset() {
    let resumed = GeneratedBehaviourTests.traces.contains { events in
      let uploads = Set(
        events.filter { $0.kind == "task.created" && $0.fields["taskKind"] == "upload" }.compactMap {
          $0.fields["task"]
        })
      return events.contains { event in
        event.kind == "task.retry" && uploads.contains(event.fields["task"] ?? "")
          && (event.fields["offset"] ?? "0") != "0"
      }
    }
    #expect(resumed, "no fuzzed upload of seeds 1-300 retried from an offset")
  }
}
