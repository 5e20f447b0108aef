import SimKernel

/// Draws a `TimelineModel` as one inline SVG element.
///
/// Elements carry stable attributes so tests and the browser check can find them without
/// depending on geometry: `<g class="lane" data-lane="app">`, `<rect class="seg"
/// data-state="foreground">`, `<rect class="bar" data-task="book" data-phase="waiting"
/// data-reason="earliestBegin">`, `<line class="wake">`, `<g class="lint" data-rule="...">`;
/// every shape has a `<title>` tooltip. Colours come from classes styled by `ReportStyle`.
struct TimelineSVG {
  /// How time maps to x: `stretched` (piecewise around events, `TimeScale`) or `linear`
  /// (equal time, equal width: the truth about how long waits are, at the cost of bursts).
  enum Axis: String, CaseIterable {
    case stretched, linear
  }

  let model: TimelineModel
  var axis: Axis = .stretched
  /// Per task name (its bytes), the account shown when any of its bars is hovered
  /// (`AccountText.hover`).
  var accounts: [WrittenKey: String] = [:]
  /// The most task rows drawn, in the model's order; a note under them counts the rest.
  var maxTaskRows = TimelineSVG.taskRowLimit

  /// A row is about 2.5 KB per axis, so 40,000 tasks drew a 245 MB page no browser opens, and a
  /// timeline past a thousand rows (28,000 pixels) is not read anyway. Every task stays in the
  /// account table under the timeline and in the trace.
  static let taskRowLimit = 1_000

  /// Total width in pixels; fits a 1400-pixel window with the page's margins.
  static let width = 1340.0
  /// Where lane labels end and time 0 begins.
  static let plotLeft = 200.0
  /// Room right of the run's end, for the cap of a task that finishes as the run ends.
  static let plotPadding = 40.0
  static let rowPitch = 28.0
  static let barHeight = 20.0
  static let axisHeight = 34.0

  /// The SVG text, deterministic for a given model.
  func render() -> String {
    let plotWidth = Self.width - Self.plotLeft - Self.plotPadding
    let scale = TimeScale(
      instants: axis == .linear ? [] : model.instants, end: model.end, left: Self.plotLeft, width: plotWidth)
    var rows: [String] = []
    var y = Self.axisHeight + 24
    let wakeRowY = Self.axisHeight + 4
    for (lane, title, segments) in [
      ("app", "app", model.app), ("network", "network", model.network), ("power", "power", model.power),
      ("ratelimiter", "rate-limiter delay", model.rateLimiter),
    ] {
      rows.append(stateLane(lane, title: title, segments: segments, y: y, scale: scale))
      y += Self.rowPitch
    }
    y += 10
    var tasks = "<g class=\"lane\" data-lane=\"tasks\">\n"
    tasks += "<text class=\"section\" x=\"8\" y=\"\(fmt(y + 4))\">tasks</text>\n"
    y += 14
    if model.tasks.isEmpty {
      tasks += "<text class=\"empty\" x=\"\(fmt(Self.plotLeft))\" y=\"\(fmt(y + 14))\">no tasks</text>\n"
      y += Self.rowPitch
    }
    let drawn = model.tasks.prefix(max(maxTaskRows, 0))
    for bar in drawn {
      tasks += taskRow(bar, y: y, scale: scale)
      y += Self.rowPitch
    }
    let undrawn = model.tasks.count - drawn.count
    if undrawn > 0 {
      tasks += "<text class=\"empty undrawn\" data-undrawn=\"\(undrawn)\" x=\"\(fmt(Self.plotLeft))\" "
      tasks += "y=\"\(fmt(y + 14))\">\(undrawn) more \(undrawn == 1 ? "task is" : "tasks are") not drawn "
      tasks += "(the first \(maxTaskRows) are): the task table below lists every task, the trace "
      tasks += "every event</text>\n"
      y += Self.rowPitch
    }
    tasks += "</g>\n"
    rows.append(tasks)
    if !model.lints.isEmpty {
      rows.append(lintLane(y: y, scale: scale))
      y += Self.rowPitch
    }
    let height = y + 6
    var out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" data-axis=\"\(axis.rawValue)\" width=\"\(fmt(Self.width))\" "
    out += "height=\"\(fmt(height))\" viewBox=\"0 0 \(fmt(Self.width)) \(fmt(height))\" role=\"img\" "
    out += "aria-label=\"timeline of the run over \(model.end)\">\n"
    out += axis(scale: scale, bottom: height - 6)
    out += rows.joined()
    out += wakes(scale: scale, rowY: wakeRowY, bottom: height - 6)
    out += "</svg>\n"
    return out
  }

  /// Tick labels along the top and faint grid lines down through every lane.
  private func axis(scale: TimeScale, bottom: Double) -> String {
    var out = "<g class=\"axis\">\n"
    out += "<line class=\"axis-line\" x1=\"\(fmt(scale.left))\" y1=\"\(fmt(Self.axisHeight))\" "
    out += "x2=\"\(fmt(scale.right))\" y2=\"\(fmt(Self.axisHeight))\"/>\n"
    for tick in scale.ticks(spacing: 64) {
      let x = fmt(scale.x(tick))
      out +=
        "<line class=\"grid\" x1=\"\(x)\" y1=\"\(fmt(Self.axisHeight - 4))\" x2=\"\(x)\" y2=\"\(fmt(bottom))\"/>"
      out += "<text class=\"tick\" x=\"\(x)\" y=\"\(fmt(Self.axisHeight - 9))\">\(tick)</text>\n"
    }
    let note = axis == .linear ? "simulated time, linear" : "simulated time, stretched"
    out += "<text class=\"axis-note\" x=\"8\" y=\"\(fmt(Self.axisHeight - 9))\">\(note)</text>\n"
    out += "</g>\n"
    return out
  }

  /// One state lane (app, network, power, rate limiter): a label and a segment per state.
  private func stateLane(_ lane: String, title: String, segments: [LaneSegment], y: Double, scale: TimeScale)
    -> String
  {
    var out = "<g class=\"lane\" data-lane=\"\(lane)\">\n"
    out +=
      "<text class=\"lane-label\" x=\"\(fmt(Self.plotLeft - 10))\" y=\"\(fmt(y + 14))\">\(esc(title))</text>\n"
    for (index, segment) in segments.enumerated() {
      let x = scale.x(segment.start)
      var w = scale.x(segment.end) - x
      if index == segments.count - 1 { w = max(w, 10) }
      guard w > 0 else { continue }
      let state = Self.token(segment.state)
      out += "<rect class=\"seg \(lane)-\(state)\" data-state=\"\(esc(segment.state))\" "
      out += "x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(w))\" height=\"\(fmt(Self.barHeight))\">"
      out += "<title>\(esc(segment.detail))</title></rect>\n"
      out += label(segment.label, x: x, width: w, y: y)
    }
    out += "</g>\n"
    return out
  }

  /// One task's row: its name and a bar per phase. A final phase that begins as the run ends is
  /// drawn as a short cap so `done` or `failed` is always visible.
  private func taskRow(_ bar: TaskBar, y: Double, scale: TimeScale) -> String {
    let name = esc(bar.name)
    var out = "<g class=\"task\" data-task=\"\(name)\">\n"
    let shown = bar.name.count > 28 ? String(bar.name.prefix(27)) + "…" : bar.name
    out += "<text class=\"lane-label\" x=\"\(fmt(Self.plotLeft - 10))\" y=\"\(fmt(y + 14))\">"
    // Looked up once per task, shown on its label and on each of its bars.
    let account = accounts[WrittenKey(bar.name)].map { "\n\n" + $0 } ?? ""
    out += "<title>\(name)\(esc(account))</title>\(esc(shown))</text>\n"
    for (index, segment) in bar.segments.enumerated() {
      let isLast = index == bar.segments.count - 1
      let x = scale.x(segment.start)
      var w = scale.x(segment.end) - x
      if isLast { w = max(w, 10) }
      guard w > 0 else { continue }
      var classes = "bar phase-\(Self.token(segment.phase))"
      var attributes = "data-task=\"\(name)\" data-phase=\"\(esc(segment.phase))\""
      if let reason = segment.reason {
        if segment.phase == "waiting" { classes += " \(Self.reasonClass(reason))" }
        attributes += " data-reason=\"\(esc(reason))\""
      }
      if let delivered = segment.delivered {
        if !delivered { classes += " undelivered" }
        attributes += " data-delivered=\"\(delivered)\""
      }
      if let bytes = segment.bytes { attributes += " data-bytes=\"\(esc(bytes))\"" }
      var tooltip = segment.detail
      if let bytes = segment.bytes { tooltip += "\nbytes: \(bytes)" }
      tooltip += account
      out += "<rect class=\"\(classes)\" \(attributes) x=\"\(fmt(x))\" y=\"\(fmt(y))\" "
      out += "width=\"\(fmt(w))\" height=\"\(fmt(Self.barHeight))\" rx=\"3\">"
      out += "<title>\(esc(tooltip))</title></rect>\n"
      // A wait that goes on for the same reason (with other conditions missing) keeps its colour
      // and is labelled once; the tooltips tell the steps apart.
      let previous = index > 0 ? bar.segments[index - 1] : nil
      let light = !Self.darkPhases.contains(segment.phase) || segment.delivered == false
      if previous?.phase != segment.phase || previous?.reason != segment.reason
        || previous?.delivered != segment.delivered
      {
        out += label(segment.label, bytes: segment.bytes, x: x, width: w, y: y, light: light)
      } else if let bytes = segment.bytes {
        out += label("", bytes: bytes, x: x, width: w, y: y, light: light)
      }
    }
    out += "</g>\n"
    return out
  }

  /// Lint markers: a diamond per lint, its rule written beside it where there is room.
  private func lintLane(y: Double, scale: TimeScale) -> String {
    var out = "<g class=\"lane\" data-lane=\"lints\">\n"
    out += "<text class=\"lane-label\" x=\"\(fmt(Self.plotLeft - 10))\" y=\"\(fmt(y + 14))\">lints</text>\n"
    var lastLabelEnd = -Double.infinity
    for lint in model.lints {
      let x = scale.x(lint.time)
      let mid = y + Self.barHeight / 2
      out += "<g class=\"lint\" data-rule=\"\(esc(lint.name))\"><title>\(esc(lint.detail))</title>"
      out += "<path d=\"M\(fmt(x)) \(fmt(mid - 7))l7 7l-7 7l-7 -7z\"/>"
      let textWidth = Self.textWidth(lint.label)
      if x + 10 > lastLabelEnd && x + 10 + textWidth < Self.width {
        out +=
          "<text class=\"lint-label\" x=\"\(fmt(x + 10))\" y=\"\(fmt(mid + 4))\">\(esc(lint.label))</text>"
        lastLabelEnd = x + 10 + textWidth + 6
      }
      out += "</g>\n"
    }
    out += "</g>\n"
    return out
  }

  /// Background wakes: a line through every lane and a numbered flag under the axis.
  private func wakes(scale: TimeScale, rowY: Double, bottom: Double) -> String {
    var out = "<g class=\"wakes\">\n"
    var lastLabelEnd = -Double.infinity
    for (index, wake) in model.wakes.enumerated() {
      let x = fmt(scale.x(wake.time))
      out += "<g class=\"wake-marker\" data-wake=\"\(index + 1)\"><title>\(esc(wake.detail))</title>"
      out += "<line class=\"wake\" x1=\"\(x)\" y1=\"\(fmt(rowY))\" x2=\"\(x)\" y2=\"\(fmt(bottom))\"/>"
      out += "<path class=\"wake-flag\" d=\"M\(x) \(fmt(rowY))l-5 0l5 8l5 -8z\"/>"
      let xValue = scale.x(wake.time)
      if xValue + 7 > lastLabelEnd {
        out +=
          "<text class=\"wake-label\" x=\"\(fmt(xValue + 7))\" y=\"\(fmt(rowY + 9))\">\(esc(wake.label))</text>"
        lastLabelEnd = xValue + 7 + Self.textWidth(wake.label) + 4
      }
      out += "</g>\n"
    }
    out += "</g>\n"
    return out
  }

  /// Text inside a segment, only when it fits: the whole label, else its first word
  /// (`discretionary (needs charging)` becomes `discretionary`); the tooltip has the rest.
  /// With bytes, the longest of `label · bytes`, `first-word · bytes`, `bytes` alone that fits
  /// comes first: the bytes say more than the phase the colour already shows.
  private func label(
    _ text: String, bytes: String? = nil, x: Double, width: Double, y: Double, light: Bool = true
  )
    -> String
  {
    let short = String(text.prefix { $0 != " " })
    var candidates: [(text: String, bytes: String?)] = []
    if let bytes {
      if !text.isEmpty { candidates += [(text + " · ", bytes), (short + " · ", bytes)] }
      candidates.append(("", bytes))
    }
    if !text.isEmpty { candidates += [(text, nil), (short, nil)] }
    guard
      let chosen = candidates.first(where: { width >= Self.textWidth($0.text + ($0.bytes ?? "")) + 8 })
    else { return "" }
    let cls = light ? "seg-label" : "seg-label on-dark"
    var out = "<text class=\"\(cls)\" x=\"\(fmt(x + 4))\" y=\"\(fmt(y + 14))\">\(esc(chosen.text))"
    if let bytes = chosen.bytes { out += "<tspan class=\"bytes\">\(esc(bytes))</tspan>" }
    return out + "</text>\n"
  }

  /// The class of a waiting reason's shade: `reason-<kind>` for the reasons the legend has a
  /// shade for, else the plain waiting colour (`phase-waiting`), so no bar has an unexplained colour.
  static func reasonClass(_ reason: String) -> String {
    ReportStyle.reasons.contains { $0.label == reason } ? "reason-\(token(reason))" : "reason-other"
  }

  /// Phases drawn in a dark colour, whose labels are written in white.
  static let darkPhases: Set<String> = ["transferring", "failed", "cancelled"]

  /// Estimated width of 11-pixel sans-serif text; generous so labels never spill.
  static func textWidth(_ text: String) -> Double { Double(text.count) * 6.4 }

  /// A trace value as a CSS class name part: letters and digits kept, the rest `-`.
  static func token(_ value: String) -> String {
    String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
  }

  private func fmt(_ value: Double) -> String { HTMLText.coordinate(value) }
  private func esc(_ text: String) -> String { HTMLText.escape(text) }
}
