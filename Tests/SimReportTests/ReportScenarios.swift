import Foundation
import ScenarioKit
import SimKernel
import TransferEngine

/// Small scenarios built in Swift whose runs the report tests draw.
enum ReportScenarios {
  /// A scenario of the shipped library, by file name.
  static func libraryPath(_ file: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scenarios").appendingPathComponent(file).path
  }

  static let bookURL = SimURL("https://example.com/book.zip")!
  static let chapterURL = SimURL("https://example.com/chapter.zip")!

  /// A background download deferred by `earliestBegin` to 1h, then transferring, then done;
  /// the app is suspended by then, so the completion wakes it (`app.resume reason=background`).
  static func deferredDownload(name: String = "deferred-download", taskName: String = "book") -> Scenario {
    Scenario(
      file: "Scenarios/deferred-download.json", name: name,
      description: "a download that waits for its start date, then wakes the app",
      device: DeviceModel(network: [
        Step(at: .zero, NetworkState(interface: .wifi)),
        Step(at: SimTime(.hours(3)), NetworkState(interface: .cellular)),
        Step(at: SimTime(.hours(4)), NetworkState(interface: .none)),
      ]),
      server: ServerModel(resources: [ServerResource(url: bookURL, size: 50_000_000, etag: "v1")]),
      app: AppSpec(sessions: [.background(withIdentifier: "MySession")]),
      timeline: [
        TimelineEntry(at: .zero, action: .launch, path: "timeline[0]"),
        TimelineEntry(
          at: SimTime(.seconds(1)),
          action: .app(
            .download(
              TaskRequest(
                session: "MySession", url: bookURL.string, name: taskName,
                earliestBegin: .absolute(SimTime(.hours(1)))))),
          path: "timeline[1]"),
        TimelineEntry(at: SimTime(.seconds(10)), action: .background, path: "timeline[2]"),
      ],
      expectations: [
        Expectation(.taskState(task: taskName, state: .completed, by: SimTime(.hours(2))), path: "expect[0]"),
        Expectation(.appCounter(name: "backgroundResumes", .equals(1)), path: "expect[1]"),
      ])
  }

  /// Quinn's one-task-at-a-time chain: each finished chapter starts the next from the background,
  /// so each waits for the rate limiter and each wake grows the delay; a never-called completion
  /// handler adds a lint and a failing expectation. Power and network change along the way, on a
  /// device that holds every discretionary transfer for power (the strict reading of
  /// `discretionary.requires`), so chapter 2 shows each discretionary wait in turn.
  static func chain() -> Scenario {
    func next(_ from: String, _ to: String, _ index: Int) -> Reaction {
      Reaction(
        event: .didFinishDownloading, task: from,
        actions: [.download(TaskRequest(session: "Books", url: chapterURL.string, name: to))],
        path: "app.behavior.on[\(index)]")
    }
    return Scenario(
      file: "Scenarios/chain.json", name: "rate-limiter-chain",
      description:
        "one chapter at a time, each started from a background wake: the delay grows from 1m to 2m",
      device: DeviceModel(
        network: [
          Step(at: .zero, NetworkState(interface: .wifi)),
          Step(at: SimTime(.minutes(5)), NetworkState(interface: .cellular)),
          Step(at: SimTime(.minutes(6)), NetworkState(interface: .wifi)),
        ],
        power: [
          Step(at: .zero, PowerState(charging: false, battery: 0.62)),
          Step(at: SimTime(.minutes(4)), PowerState(charging: false, battery: 0.2, lowPowerMode: true)),
          Step(at: SimTime(.hours(1)), PowerState(charging: true, battery: 0.25)),
        ]),
      server: ServerModel(resources: [ServerResource(url: chapterURL, size: 20_000_000, etag: "c1")]),
      policy: Policy(discretionary: DiscretionaryPolicy(requires: [.wifi, .charging])),
      app: AppSpec(
        sessions: [.background(withIdentifier: "Books")],
        behavior: AppBehavior(
          callsCompletionHandler: .never,
          reactions: [next("chapter-1", "chapter-2", 0), next("chapter-2", "chapter-3", 1)])),
      timeline: [
        TimelineEntry(at: .zero, action: .launch, path: "timeline[0]"),
        TimelineEntry(
          at: SimTime(.seconds(1)),
          action: .app(.download(TaskRequest(session: "Books", url: chapterURL.string, name: "chapter-1"))),
          path: "timeline[1]"),
        TimelineEntry(at: SimTime(.seconds(2)), action: .background, path: "timeline[2]"),
      ],
      expectations: [
        Expectation(.taskState(task: "chapter-3", state: .completed, by: nil), path: "expect[0]"),
        Expectation(.appCounter(name: "backgroundResumes", .equals(1)), path: "expect[1]"),
      ])
  }

  /// A week-long run whose interesting part is its first seconds: a discretionary download waits
  /// two days for the charger while a large one is cancelled after 30 seconds.
  static func week() -> Scenario {
    let videoURL = SimURL("https://example.com/video.mp4")!
    let session = SessionConfiguration(identifier: "Sync", kind: .background, isDiscretionary: true)
    return Scenario(
      file: "Scenarios/week.json", name: "discretionary-week",
      description: "a discretionary download waits two days for the charger; a large one is cancelled",
      device: DeviceModel(
        network: [Step(at: .zero, NetworkState(interface: .wifi))],
        power: [
          Step(at: .zero, PowerState(charging: false, battery: 0.8)),
          Step(at: SimTime(.days(2)), PowerState(charging: true, battery: 0.3)),
        ]),
      server: ServerModel(resources: [
        ServerResource(url: bookURL, size: 50_000_000, etag: "v1"),
        ServerResource(url: videoURL, size: 2_000_000_000, etag: "v1"),
      ]),
      app: AppSpec(sessions: [session, .background(withIdentifier: "Now")]),
      timeline: [
        TimelineEntry(at: .zero, action: .launch, path: "timeline[0]"),
        TimelineEntry(
          at: SimTime(.seconds(1)),
          action: .app(.download(TaskRequest(session: "Sync", url: bookURL.string, name: "book"))),
          path: "timeline[1]"),
        TimelineEntry(
          at: SimTime(.seconds(2)),
          action: .app(.download(TaskRequest(session: "Now", url: videoURL.string, name: "video"))),
          path: "timeline[2]"),
        TimelineEntry(
          at: SimTime(.seconds(30)), action: .app(.cancel(task: "video", produceResumeData: true)),
          path: "timeline[3]"),
        TimelineEntry(at: SimTime(.minutes(1)), action: .background, path: "timeline[4]"),
      ],
      expectations: [
        Expectation(.startsAfter(task: "book", SimTime(.days(2))), path: "expect[0]"),
        Expectation(.error(task: "video", name: "cancelled", reason: nil), path: "expect[1]"),
      ])
  }

  /// One of the page's two timelines (`stretched`, shown by default, or `linear`): the SVG
  /// between its `<div class="scroll timeline-AXIS">` and the end of that `<svg>`.
  static func timeline(_ page: String, axis: String = "stretched") -> String {
    guard let start = page.range(of: "<div class=\"scroll timeline-\(axis)\">"),
      let end = page.range(of: "</svg>", range: start.upperBound..<page.endIndex)
    else { return "" }
    return String(page[start.lowerBound..<end.upperBound])
  }
}
