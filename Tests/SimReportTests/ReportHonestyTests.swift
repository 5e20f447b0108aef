import Foundation
import ScenarioKit
import SimKernel
import Testing

@testable import SimReport

/// The report must not mislead: a linear axis beside the stretched one, bytes on the bars,
/// ended-in-the-daemon apart from delivered-to-the-app, force quit as such, every colour in the
/// legend, a failure's nearest trace lines, and the task's account on hover.
@Suite struct ReportHonestyTests {
  static func library(_ name: String) throws -> (RunResult, String) {
    let result = ScenarioRunner.run(
      try ScenarioLoader.load(path: ReportScenarios.libraryPath(name + ".json")))
    return (result, HTMLReport.render(result))
  }

  /// `(phase, delivered, bytes)` of each bar of `task` in one timeline, in time order.
  static func bars(of task: String, in svg: String) -> [String] {
    svg.components(separatedBy: "<rect class=\"bar ").dropFirst()
      .map { String($0.prefix { $0 != ">" }) }
      .filter { $0.contains("data-task=\"\(task)\"") }
      .map { head in
        func attribute(_ name: String) -> String? {
          head.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
        var text = attribute("data-phase") ?? "?"
        if let delivered = attribute("data-delivered") {
          text += delivered == "true" ? " delivered" : " undelivered"
        }
        if let bytes = attribute("data-bytes") { text += " [\(bytes)]" }
        return text
      }
  }

  @Test func pageOffersAStretchedAndALinearAxisWithACSSOnlyToggle() throws {
    let (_, page) = try Self.library("etag-change-restarts")
    #expect(page.contains("<input type=\"radio\" name=\"axis\" id=\"axis-stretched\" checked>"))
    #expect(page.contains("<input type=\"radio\" name=\"axis\" id=\"axis-linear\">"))
    #expect(page.contains(".timeline-linear{display:none}"))
    #expect(page.contains("#axis-linear:checked~.timeline-linear{display:block}"))
    #expect(page.contains("#axis-linear:checked~.timeline-stretched{display:none}"))
    #expect(!page.contains("<script"))
    #expect(ReportScenarios.timeline(page).contains("data-axis=\"stretched\""))
    #expect(ReportScenarios.timeline(page, axis: "linear").contains("data-axis=\"linear\""))
  }

  /// On the linear axis every tick sits at a distance from 0 proportional to its time.
  @Test func linearAxisTicksAreProportionalToTime() throws {
    let (result, page) = try Self.library("etag-change-restarts")
    let svg = ReportScenarios.timeline(page, axis: "linear")
    let tick = /<text class="tick" x="([0-9.]+)" y="[0-9.]+">([^<]+)<\/text>/
    let ticks = svg.matches(of: tick).map { (x: Double($0.output.1)!, t: String($0.output.2)) }
    #expect(ticks.count >= 4)
    let end = Double(result.endTime.nanoseconds)
    let width = TimelineSVG.width - TimelineSVG.plotLeft - TimelineSVG.plotPadding
    for (x, text) in ticks {
      let duration = try Literals.duration(text)
      let expected = TimelineSVG.plotLeft + width * Double(duration.nanoseconds) / end
      #expect(abs(x - expected) <= 0.1, "tick \(text) at \(x), expected \(expected)")
    }
    // The stretched axis is not linear here: the 10 s before the outage take far more room.
    let stretched = ReportScenarios.timeline(page).matches(of: tick).map {
      (Double($0.output.1)!, String($0.output.2))
    }
    #expect(stretched.contains { $0.1 == "10s" && $0.0 > TimelineSVG.plotLeft + 100 })
  }

  @Test func linearScaleMapsTimeProportionally() {
    let end = SimTime(.hours(10))
    let scale = TimeScale(instants: [], end: end, left: 200, width: 1000)
    #expect(scale.x(.zero) == 200)
    #expect(abs(scale.x(SimTime(.hours(1))) - 300) < 1e-9)
    #expect(abs(scale.x(SimTime(.hours(5))) - 700) < 1e-9)
    #expect(scale.x(end) == 1200)
  }

  @Test func barsCarryTheBytesOfEachStep() throws {
    let (_, wifi) = try Self.library("wifi-lost-mid-download")
    #expect(
      Self.bars(of: "bg", in: ReportScenarios.timeline(wifi)) == [
        "transferring", "waiting [cut off at 200KB]", "waiting", "transferring [from 200KB]",
        "done delivered [1MB]",
      ])
    #expect(
      Self.bars(of: "fg", in: ReportScenarios.timeline(wifi)) == [
        "transferring", "failed delivered [resume data at 200KB]",
      ])
    #expect(wifi.contains("<tspan class=\"bytes\">from 200KB</tspan>"))
    let (_, etag) = try Self.library("etag-change-restarts")
    #expect(
      Self.bars(of: "region", in: ReportScenarios.timeline(etag)).contains(
        "transferring [from 0B, 20MB wasted]"))
    // An upload that cannot resume restarts from zero: its bar says what was thrown away too.
    let (upload, uploadPage) = try Self.library("resumable-upload-wifi-lost")
    #expect(
      Self.bars(of: "plain", in: ReportScenarios.timeline(uploadPage)).contains(
        "transferring [from 0B, 29.47MB wasted]"))
    #expect(upload.bytesWastedByTask["plain"] == 29_470_000)
    let (_, resumed) = try Self.library("seed002-pause-and-resume")
    #expect(
      Self.bars(of: "movie-resumed", in: ReportScenarios.timeline(resumed)).first
        == "transferring [resumed at 40MB of 100MB]")
  }

  /// The header and the index print the simulated time as `bgsim run` does (to the
  /// millisecond), not the trace's exact nanoseconds.
  @Test func simulatedTimeReadsAsRunPrintsIt() throws {
    let (result, page) = try Self.library("seed001-photo-upload-from-file")
    #expect(result.endTime.sinceStart.formatted == "2m29.080533334s")
    #expect(page.contains(" · simulated time 2m29.081s · "))
    #expect(!page.contains("simulated time 2m29.080533334s"))
    let entry = ReportIndex.Entry(
      name: "n", description: "", passed: true, simulatedTime: result.endTime, link: "n.html", file: "n.json")
    #expect(ReportIndex.render([entry]).contains("<td>2m29.081s</td>"))
  }

  @Test func endedInTheDaemonIsDrawnApartFromDeliveredToTheApp() throws {
    let (_, page) = try Self.library("force-quit")
    let svg = ReportScenarios.timeline(page)
    #expect(
      Self.bars(of: "assets", in: svg) == [
        "transferring", "cancelled undelivered [resume data at 147.35MB]", "cancelled delivered",
      ])
    #expect(svg.contains("<rect class=\"bar phase-cancelled undelivered\" data-task=\"assets\""))
    #expect(svg.contains(">cancelled: force quit · <tspan class=\"bytes\">"))
    #expect(page.contains("data-key=\".undelivered\""))
  }

  @Test func forceQuitIsItsOwnAppStateInTheLaneAndTheLegend() throws {
    let (_, page) = try Self.library("force-quit")
    #expect(
      ReportScenarios.timeline(page).contains("<rect class=\"seg app-forceQuit\" data-state=\"forceQuit\""))
    #expect(page.contains("data-key=\".app-forceQuit\""))
    let (_, relaunch) = try Self.library("relaunch-after-termination")
    #expect(!ReportScenarios.timeline(relaunch).contains("app-forceQuit"))
  }

  /// Every colour drawn on any shipped scenario's page is explained by a legend key.
  @Test func everyColourOnTheTimelineHasALegendKey() throws {
    let folder = URL(fileURLWithPath: ReportScenarios.libraryPath(""))
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".trace.jsonl") }.sorted()
    #expect(files.count > 20)
    for file in files {
      let (_, page) = try Self.library(String(file.dropLast(5)))
      let keys = Set(page.matches(of: /data-key="([^"]+)"/).map { String($0.output.1) })
      for match in page.matches(of: /<rect class="(seg|bar) ([^"]+)"/) {
        let classes = match.output.2.split(separator: " ").map { "." + $0 }
        // The most specific class sets the fill: a waiting reason over the phase.
        let fill = classes.last { $0.hasPrefix(".reason-") } ?? classes[0]
        #expect(keys.contains(fill), "\(file): \(fill) has no legend key")
        if classes.contains(".undelivered") { #expect(keys.contains(".undelivered"), "\(file)") }
      }
    }
  }

  @Test func aFailedExpectationShowsItsNearestTraceLines() throws {
    let result = ScenarioRunner.run(ReportScenarios.chain())
    let failure = try #require(result.expectations.first { !$0.passed })
    #expect(!failure.nearby.isEmpty)
    let page = HTMLReport.render(result)
    #expect(
      page.contains(
        "nearest trace lines:<pre class=\"nearby\">\(HTMLText.escape(TimelineText.render(failure.nearby)))</pre>"
      ))
    #expect(
      page.components(separatedBy: "<pre class=\"nearby\">").count - 1
        == result.expectations.filter { !$0.passed && !$0.nearby.isEmpty }.count)
  }

  @Test func hoveringABarShowsTheTasksAccount() throws {
    let (result, page) = try Self.library("wifi-lost-mid-download")
    let bg = try #require(TaskAccounts.compute(result).first { $0.task == "bg" })
    let hover = HTMLText.escape(AccountText.hover(bg))
    #expect(hover.contains("where the time went: waiting: connectivity 9m50s"))
    let svg = ReportScenarios.timeline(page)
    let bgBars = svg.components(separatedBy: "<rect class=\"bar ").dropFirst().filter {
      $0.contains("data-task=\"bg\"")
    }
    #expect(bgBars.count == 5)
    for bar in bgBars { #expect(bar.contains(hover + "</title></rect>")) }
  }

  /// A battery changing at a rate steps once per percent; the power lane draws each state once,
  /// labelled with its levels at the ends and where they turned.
  @Test func powerLaneMergesPercentStepsOfOneState() throws {
    let (_, page) = try Self.library("battery-drain-low-power")
    let svg = ReportScenarios.timeline(page)
    let lane = try #require(svg.components(separatedBy: "data-lane=\"power\"").dropFirst().first)
      .components(separatedBy: "</g>")[0]
    let states = lane.matches(of: /data-state="([A-Za-z]+)"/).map { String($0.output.1) }
    #expect(states == ["battery", "lowPower", "charging"])
    #expect(lane.contains(">battery 45% → 21%</text>"))
    #expect(lane.contains(">Low Power Mode 20% → 15% → 79%</text>"))
    #expect(lane.contains(">charging 80% → 100%</text>"))
  }
}
