import SimKernel
import TransferEngine

/// A stretch of one lane during which one state holds, such as "app in the background".
struct LaneSegment: Equatable {
  var start: SimTime
  var end: SimTime
  /// The state's name: the CSS class suffix and the `data-state` (or `data-phase`) value.
  var state: String
  /// Short text drawn inside the segment when it fits.
  var label: String
  /// Tooltip text.
  var detail: String
}

/// An instant worth a marker: a background wake or a lint.
struct TimelineMarker: Equatable {
  var time: SimTime
  /// `wake` or the lint's rule.
  var name: String
  var label: String
  var detail: String
}

/// What the timeline draws, read from a run's trace: the state lanes, one bar per task, wakes
/// and lints. Built once, then rendered by `TimelineSVG`; kept separate so the reading of the
/// trace can be checked without parsing SVG.
struct TimelineModel {
  var end: SimTime
  var app: [LaneSegment] = []
  var network: [LaneSegment] = []
  var power: [LaneSegment] = []
  var rateLimiter: [LaneSegment] = []
  var tasks: [TaskBar] = []
  var wakes: [TimelineMarker] = []
  var lints: [TimelineMarker] = []
  /// Every instant of the trace, for the time scale.
  var instants: [SimTime]

  init(events: [TraceEvent], end: SimTime) {
    let end = max(end, events.last?.time ?? .zero)
    self.end = end
    self.instants = events.map(\.time)
    var app = StepLane(state: "notRunning", label: "not running", detail: "not running")
    var network = StepLane(state: "none", label: "offline", detail: "no interface")
    var power = StepLane(state: "battery", label: "battery", detail: "on battery")
    var limiter = StepLane(state: "zero", label: "0", detail: "delay 0: background tasks start at once")
    var pendingDelay: TraceEvent?
    for event in events {
      let t = event.time
      switch event.traceKind {
      case .appLaunch?, .appForeground?, .appBackground?, .appSuspend?, .appResume?, .appTerminate?:
        let (state, label) = Self.appState(event)
        app.change(at: t, state: state, label: label, detail: "\(label) since \(t): \(Self.describe(event))")
        if state == "background" && event["reason"]?.description == "background" {
          // The engine traces `ratelimiter.wake` just before the wake it belongs to.
          let delay = pendingDelay?.time == t ? pendingDelay : nil
          wakes.append(Self.wake(event, number: wakes.count + 1, delay: delay))
        }
      case .networkChange?:
        let (state, label) = Self.network(event)
        network.change(
          at: t, state: state, label: label, detail: "\(label) since \(t): \(Self.describe(event))")
      case .powerChange?:
        let (state, label) = Self.power(event)
        power.change(
          at: t, state: state, label: label, detail: "\(label) since \(t): \(Self.describe(event))")
      case .rateLimiterWake?:
        pendingDelay = event
        Self.rateLimiterWake(event, lane: &limiter)
      case .rateLimiterReset?:
        let reason = event["reason"]?.description ?? "?"
        limiter.change(
          at: t, state: "zero", label: "0", detail: "delay reset to 0 at \(t) (\(reason))")
      case .lint?:
        let rule = event["rule"]?.description ?? "lint"
        let message = event["message"]?.description ?? ""
        lints.append(
          TimelineMarker(time: t, name: rule, label: rule, detail: "\(t) lint \(rule): \(message)"))
      default: break
      }
    }
    self.app = app.segments(until: end)
    self.network = network.segments(until: end)
    self.power = Self.mergeLevels(power.segments(until: end))
    self.rateLimiter = limiter.segments(until: end)
    self.tasks = TaskBar.bars(from: events, end: end)
  }

  /// An event's fields as `key=value` text for tooltips.
  static func describe(_ event: TraceEvent) -> String {
    ([event.kind] + event.fields.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
  }

  /// The app state an `app.*` event leads to (behavior.md, App lifecycle).
  static func appState(_ event: TraceEvent) -> (state: String, label: String) {
    let reason = event["reason"]?.description
    switch event.traceKind {
    case .appLaunch?:
      return reason == "background" ? ("background", "background launch") : ("foreground", "foreground")
    case .appForeground?: return ("foreground", "foreground")
    case .appBackground?: return ("background", "background")
    case .appSuspend?: return ("suspended", "suspended")
    case .appResume?: return ("background", reason == "background" ? "woken" : "background")
    default:
      // A force quit is the user's act and changes what the system does next (no background
      // launches until the user opens the app), so it is its own state, not a plain termination.
      if reason == "forceQuit" { return ("forceQuit", "force-quit by the user") }
      return ("notRunning", reason.map { "terminated (\($0))" } ?? "terminated")
    }
  }

  /// Interface segment state and label: `wifi 50Mbps`, `cellular 10Mbps expensive`.
  static func network(_ event: TraceEvent) -> (state: String, label: String) {
    let interface = event["interface"]?.description ?? "none"
    guard interface != "none" else { return ("none", "offline") }
    var label = interface
    if let down = event["down"] { label += " \(down)" }
    if event["expensive"] == .bool(true) { label += " expensive" }
    if event["constrained"] == .bool(true) { label += " Low Data" }
    return (interface, label)
  }

  /// Power segment: Low Power Mode wins over charging, since it is what blocks discretionary work.
  static func power(_ event: TraceEvent) -> (state: String, label: String) {
    var percent = ""
    switch event["battery"] {
    case .double(let level): percent = " \(Int((level * 100).rounded()))%"
    case .int(let level): percent = " \(level * 100)%"
    default: break
    }
    if event["lowPowerMode"] == .bool(true) { return ("lowPower", "Low Power Mode" + percent) }
    if event["charging"] == .bool(true) { return ("charging", "charging" + percent) }
    return ("battery", "battery" + percent)
  }

  /// Neighbouring power segments in the same state (a battery draining at a rate steps once per
  /// percent) drawn as one, labelled with the level at each end and where it turned:
  /// `battery 45% → 21%`, `Low Power Mode 20% → 15% → 79%`.
  static func mergeLevels(_ segments: [LaneSegment]) -> [LaneSegment] {
    func split(_ label: String) -> (name: String, level: Int?) {
      guard let space = label.lastIndex(of: " "), label.hasSuffix("%") else { return (label, nil) }
      return (String(label[..<space]), Int(label[label.index(after: space)...].dropLast()))
    }
    var out: [LaneSegment] = []
    /// Per merged segment: its name, its levels' turning points, and its tooltip as it began.
    var runs: [(name: String, levels: [Int], detail: String)] = []
    for segment in segments {
      let (name, level) = split(segment.label)
      if var last = out.last, var run = runs.last, last.state == segment.state, run.name == name,
        !run.levels.isEmpty, let level
      {
        // Keep only where the level turns: 20, 19, 18 ... 15, 16 ... 79 keeps 20, 15, 79.
        if run.levels.count >= 2 {
          let (a, b) = (run.levels[run.levels.count - 2], run.levels[run.levels.count - 1])
          if (b - a).signum() == (level - b).signum() { run.levels.removeLast() }
        }
        run.levels.append(level)
        last.end = segment.end
        last.label = name + " " + run.levels.map { "\($0)%" }.joined(separator: " → ")
        last.detail = "\(run.detail)\nthen a percent at a time, the last: \(segment.detail)"
        out[out.count - 1] = last
        runs[runs.count - 1] = run
        continue
      }
      out.append(segment)
      runs.append((name, level.map { [$0] } ?? [], segment.detail))
    }
    return out
  }

  /// A wake sets a new delay: it blocks tasks created in the background until it expires,
  /// then is only remembered (for the next doubling) until an idle reset.
  static func rateLimiterWake(_ event: TraceEvent, lane: inout StepLane) {
    let t = event.time
    let wake = event["wake"]?.description ?? "?"
    let text = event["delay"]?.description ?? "?"
    guard case .duration(let delay)? = event["delay"], delay > .zero else {
      lane.change(at: t, state: "active", label: text, detail: "wake \(wake) at \(t): delay \(text)")
      return
    }
    let expiry = t + delay
    lane.change(
      at: t, state: "active", label: text,
      detail: "wake \(wake) at \(t): delay \(text); tasks created in the background wait until \(expiry)")
    lane.change(
      at: expiry, state: "expired", label: "\(text) (expired)",
      detail: "delay \(text) expired at \(expiry); kept for the next wake until an idle reset")
  }

  /// A wake marker; the delay the rate limiter set for this wake goes in its tooltip.
  static func wake(_ event: TraceEvent, number: Int, delay: TraceEvent?) -> TimelineMarker {
    let how = event.is(.appLaunch) ? "relaunched in the background" : "resumed in the background"
    var detail = "wake \(number) at \(event.time): \(how)"
    if let delay, let value = delay["delay"] { detail += "; rate limiter delay now \(value)" }
    return TimelineMarker(time: event.time, name: "wake", label: "wake \(number)", detail: detail)
  }
}

/// A step function under construction: each change holds until the next one.
struct StepLane {
  private var changes: [(time: SimTime, state: String, label: String, detail: String)]

  init(state: String, label: String, detail: String) {
    changes = [(.zero, state, label, detail)]
  }

  /// A change at an instant replaces an earlier change at the same instant; a change scheduled
  /// later than one added after it (a rate-limiter expiry overtaken by a reset) is dropped.
  mutating func change(at time: SimTime, state: String, label: String, detail: String) {
    changes.removeAll { $0.time >= time }
    changes.append((time, state, label, detail))
  }

  /// The segments from 0 to `end`, merging neighbours with the same state and label. A last
  /// change exactly at `end` is kept with zero length (drawn as a cap): a run that ends as the
  /// network goes down should still show that it went down.
  func segments(until end: SimTime) -> [LaneSegment] {
    var out: [LaneSegment] = []
    for (index, change) in changes.enumerated()
    where change.time < end || (change.time == end && index == changes.count - 1) {
      let next = index + 1 < changes.count ? min(changes[index + 1].time, end) : end
      if let last = out.last, last.state == change.state, last.label == change.label {
        out[out.count - 1].end = next
        continue
      }
      out.append(
        LaneSegment(
          start: change.time, end: next, state: change.state, label: change.label, detail: change.detail))
    }
    return out
  }
}
