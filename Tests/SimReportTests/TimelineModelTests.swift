import ScenarioKit
import SimKernel
import Testing

@testable import SimReport

/// How the trace is read into lanes, and the time scale that keeps a week readable.
@Suite struct TimelineModelTests {
  static let model: TimelineModel = {
    let result = ScenarioRunner.run(ReportScenarios.deferredDownload())
    return TimelineModel(events: result.trace.events, end: result.endTime)
  }()

  @Test func appLaneFollowsTheLifecycle() {
    // The wake at 1h8.06s resumes and suspends the app in the same instant: the lane stays
    // suspended and the wake is drawn as a marker instead.
    #expect(Self.model.app.map(\.state) == ["foreground", "background", "suspended"])
    #expect(Self.model.app.map(\.start) == [.zero, SimTime(.seconds(10)), SimTime(.seconds(15))])
    #expect(Self.model.wakes.map(\.time) == [SimTime(nanoseconds: 3_608_060_000_000)])
  }

  /// Two tasks whose names differ only in their Unicode form are two bars, each with its own
  /// phases, as the run tells them apart.
  @Test func tasksAreToldApartByTheirNamesBytes() throws {
    let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
    let download = { (at: Int, name: String) in
      #"{"at": "\#(at)s", "do": "download", "session": "S", "url": "https://h/x", "name": "\#(name)"}"#
    }
    let text = """
      {"name": "bars", "duration": "1h", "server": {"resources": [{"url": "https://h/x", "size": "2MB"}]},
       "app": {"sessions": [{"identifier": "S", "kind": "background"}]},
       "timeline": [{"at": "0s", "do": "launch"}, \(download(1, composed)), \(download(2, decomposed)),
                    {"at": "2s", "do": "cancel", "task": "\(decomposed)"}]}
      """
    let result = ScenarioRunner.run(try ScenarioLoader.load(data: Array(text.utf8), file: "bars.json"))
    let bars = TaskBar.bars(from: result.trace.events, end: result.endTime)
    #expect(bars.count == 2)
    #expect(bars.first?.name.hasSameUTF8(composed) == true && bars.first?.segments.last?.phase == "done")
    #expect(bars.last?.name.hasSameUTF8(decomposed) == true && bars.last?.segments.last?.phase == "cancelled")
  }

  @Test func networkAndPowerLanesAreStepFunctions() {
    #expect(Self.model.network.map(\.state) == ["wifi", "cellular", "none"])
    #expect(Self.model.network.map(\.label) == ["wifi 50Mbps", "cellular 10Mbps expensive", "offline"])
    #expect(Self.model.power.map(\.label) == ["battery 100%"])
    #expect(Self.model.network.last?.end == Self.model.end)
  }

  @Test func rateLimiterLaneShowsTheDelayWhileItRunsAndUntilItResets() {
    let wake = SimTime(nanoseconds: 3_608_060_000_000)
    #expect(Self.model.rateLimiter.map(\.state) == ["zero", "active", "expired", "zero"])
    #expect(Self.model.rateLimiter[1].start == wake)
    #expect(Self.model.rateLimiter[1].end == wake + .minutes(1))
    #expect(Self.model.rateLimiter[2].end == wake + .minutes(2))
  }

  @Test func stepLaneDropsAPlannedExpiryOvertakenByAnEarlierChange() {
    var lane = StepLane(state: "zero", label: "0", detail: "")
    lane.change(at: SimTime(.seconds(10)), state: "active", label: "1m", detail: "")
    lane.change(at: SimTime(.seconds(70)), state: "expired", label: "1m", detail: "")
    lane.change(at: SimTime(.seconds(20)), state: "zero", label: "0", detail: "")
    #expect(lane.segments(until: SimTime(.seconds(100))).map(\.state) == ["zero", "active", "zero"])
  }

  @Test func weekLongRunKeepsTheFirstSecondsApart() {
    let instants = [0, 1, 2, 3].map { SimTime(.seconds($0)) } + [SimTime(.hours(1)), SimTime(.days(7))]
    let scale = TimeScale(instants: instants, end: SimTime(.days(7)), left: 100, width: 1000)
    let xs = instants.map(scale.x)
    #expect(xs.first == 100)
    #expect(abs(xs.last! - 1100) < 0.001)
    for (a, b) in zip(xs, xs.dropFirst()) { #expect(b - a >= 4) }
    // Longer gaps stay longer: the week after the hour is wider than the hour after 3s.
    #expect(xs[5] - xs[4] > xs[4] - xs[3])
  }

  @Test func ticksAreRoundReadableAndApart() {
    let instants = [0, 1, 2, 3].map { SimTime(.seconds($0)) } + [SimTime(.hours(1)), SimTime(.days(7))]
    let scale = TimeScale(instants: instants, end: SimTime(.days(7)), left: 0, width: 1000)
    let ticks = scale.ticks(spacing: 60)
    let labels = ticks.map(\.description)
    #expect(labels.first == "0s")
    #expect(labels.contains("1h"))
    #expect(labels.contains { $0.hasSuffix("d") })
    #expect(labels.allSatisfy { $0.count <= 6 })
    let xs = ticks.map(scale.x)
    for (a, b) in zip(xs, xs.dropFirst()) { #expect(b - a >= 60) }
  }

  @Test func emptyTraceGivesAnEmptyButValidTimeline() {
    let model = TimelineModel(events: [], end: .zero)
    #expect(model.tasks.isEmpty)
    let svg = TimelineSVG(model: model).render()
    #expect(svg.contains("<g class=\"lane\" data-lane=\"app\">"))
    #expect(svg.contains(">no tasks</text>"))
  }
}
