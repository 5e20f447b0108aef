import TransferEngine

/// The report's colours, legend and style sheet, in one place so the SVG classes, the legend
/// swatches and the CSS cannot drift apart.
///
/// Colours follow iOS conventions where there is one (green foreground and charging, blue for
/// data moving, red for failure) and keep waiting shades light, so the eye goes first to what
/// transferred and what failed.
enum ReportStyle {
  /// One colour key: the CSS selector it styles, its fill, and what the legend calls it.
  struct Key {
    var selector: String
    var color: String
    var label: String
    /// Legend tooltip: what the state means in iOS terms.
    var help: String
  }

  static let app: [Key] = [
    Key(
      selector: ".app-foreground", color: "#34c759", label: "foreground", help: "the user is using the app"),
    Key(
      selector: ".app-background", color: "#ffcc66", label: "background",
      help: "running in the background (left by the user, or woken by the system)"),
    Key(selector: ".app-suspended", color: "#b8c7e0", label: "suspended", help: "in memory, not running"),
    Key(
      selector: ".app-notRunning", color: "#e5e5ea", label: "not running",
      help: "never launched, or terminated by the system"),
    Key(
      selector: ".app-forceQuit", color: "#ff9f9a", label: "force-quit",
      help:
        "swiped away by the user: background tasks cancelled, no background launch until the user opens it"),
  ]

  static let network: [Key] = [
    Key(selector: ".network-wifi", color: "#64d2ff", label: "Wi-Fi", help: "Wi-Fi interface"),
    Key(selector: ".network-cellular", color: "#ff9f0a", label: "cellular", help: "cellular: expensive"),
    Key(selector: ".network-wired", color: "#d4b3f5", label: "wired", help: "wired interface"),
    Key(selector: ".network-none", color: "#d1d1d6", label: "offline", help: "no interface"),
  ]

  static let power: [Key] = [
    Key(selector: ".power-charging", color: "#7ddc8f", label: "charging", help: "on external power"),
    Key(selector: ".power-battery", color: "#f0e2c0", label: "battery", help: "on battery"),
    Key(
      selector: ".power-lowPower", color: "#ffe45c", label: "Low Power Mode",
      help: "Low Power Mode: discretionary work waits"),
  ]

  static let rateLimiter: [Key] = [
    Key(selector: ".ratelimiter-zero", color: "#f2f2f7", label: "no delay", help: "delay 0"),
    Key(
      selector: ".ratelimiter-active", color: "#ff8a80", label: "delay running",
      help: "tasks created in the background wait until the delay expires"),
    Key(
      selector: ".ratelimiter-expired", color: "#ffd6d1", label: "delay expired",
      help: "no longer blocks, but the next wake grows it unless it resets first"),
  ]

  static let phases: [Key] = [
    Key(
      selector: ".phase-transferring", color: "#0a84ff", label: "transferring",
      help: "connecting or moving bytes"),
    Key(selector: ".phase-done", color: "#a8e6b8", label: "done", help: "finished (any HTTP status)"),
    Key(selector: ".phase-failed", color: "#ff453a", label: "failed", help: "failed with an error, or lost"),
    Key(selector: ".phase-cancelled", color: "#8e8e93", label: "cancelled", help: "cancelled"),
    Key(selector: ".phase-waiting", color: "#fff3c4", label: "waiting", help: "not transferring"),
  ]

  /// Shades of waiting, one per `task.deferred` reason (behavior.md, When a task may start).
  static let reasons: [Key] =
    [
      Key(
        selector: ".reason-created", color: "#f2f2f7", label: "created",
        help: "created, resume() not called yet"),
      Key(
        selector: ".reason-queued", color: "#e5e5ea", label: "queued", help: "resumed, about to be decided"),
      Key(
        selector: ".reason-challengeAnswer", color: "#c6ecd9", label: "challengeAnswer",
        help: "challenged: waits for the app's answer to an authentication challenge"),
    ] + SimURLSessionTask.WaitReason.Kind.allCases.map(key(for:))

  /// The shade of one wait reason; the list of reasons is the engine's.
  private static func key(for reason: SimURLSessionTask.WaitReason.Kind) -> Key {
    let (color, help): (String, String)
    switch reason {
    case .earliestBegin: (color, help) = ("#ffe08a", "before the task's earliestBeginDate")
    case .rateLimiter:
      (color, help) = ("#ffb4a8", "created in the background: waits for the rate limiter's delay")
    case .discretionary:
      (color, help) = (
        "#d9c8f7", "discretionary: waits for Wi-Fi, power for a large transfer, no Low Power Mode"
      )
    case .connectivity: (color, help) = ("#cfd8e3", "no network interface")
    case .cellularNotAllowed: (color, help) = ("#bde0fe", "only cellular, and the session disallows it")
    case .expensiveNotAllowed:
      (color, help) = ("#bde0fe", "only an expensive interface, and the session disallows it")
    case .constrainedNotAllowed:
      (color, help) = ("#bde0fe", "only Low Data Mode, and the session disallows it")
    case .connectionLimit:
      (color, help) = ("#f7c8e0", "maxConnectionsPerHost transfers already running to the host")
    case .retryBackoff: (color, help) = ("#ffd1a1", "interrupted; backing off before a retry")
    case .appSuspended: (color, help) = ("#b8c7e0", "default session: paused while the app is suspended")
    case .deviceLocked: (color, help) = ("#9aa5b1", "the device restarted and is not unlocked yet")
    case .delayedRequest:
      (color, help) = ("#e6d3a3", "ready; waits for the app's willBeginDelayedRequest answer")
    }
    return Key(selector: ".reason-\(reason.rawValue)", color: color, label: reason.rawValue, help: help)
  }

  /// The legend as HTML: every group, with waiting shades limited to the reasons of this run.
  static func legend(waitingReasons used: Set<String>) -> String {
    var reasons = reasons.filter { used.contains($0.label) }
    if used.contains(where: { reason in !Self.reasons.contains { $0.label == reason } }) {
      reasons.append(
        Key(
          selector: ".reason-other", color: "#fff3c4", label: "other",
          help: "any other reason (see the tooltip)"))
    }
    var out = "<div class=\"legend\">\n"
    let groups: [(String, [Key])] = [
      ("App", app), ("Network", network), ("Power", power), ("Rate-limiter delay", rateLimiter),
      ("Task", phases.filter { $0.label != "waiting" }), ("Waiting because", reasons),
    ]
    for (title, keys) in groups where !keys.isEmpty {
      out += "<div class=\"legend-group\"><span class=\"legend-title\">\(title)</span>"
      for key in keys {
        out += "<span class=\"key\" data-key=\"\(HTMLText.escape(key.selector))\" "
        out += "title=\"\(HTMLText.escape(key.help))\">"
        out += "<i style=\"background:\(key.color)\"></i>\(HTMLText.escape(key.label))</span>"
      }
      out += "</div>\n"
    }
    out += "<div class=\"legend-group\"><span class=\"legend-title\">Delivery</span>"
    out += "<span class=\"key\" data-key=\".undelivered\" title=\"the task ended in the daemon, but "
    out += "the app has not been told (delegate didComplete) yet\"><i class=\"key-undelivered\"></i>"
    out += "ended, not yet delivered</span>"
    out += "<span class=\"key\" title=\"solid: the app has been told (delegate didComplete)\">"
    out += "<i class=\"key-delivered\"></i>delivered to the app</span>"
    out +=
      "<span class=\"key\" title=\"bytes on a bar: where an attempt started (from), where it was cut off, "
    out += "what a restart threw away (wasted), the resume data left, the size it finished with\">"
    out += "<b class=\"bytes\">from 20MB</b>bytes</span></div>\n"
    out += "<div class=\"legend-group\"><span class=\"legend-title\">Markers</span>"
    out += "<span class=\"key\" title=\"the system resumed or relaunched the app in the background\">"
    out += "<i class=\"key-wake\"></i>background wake</span>"
    out +=
      "<span class=\"key\" title=\"the app broke a documented rule\"><i class=\"key-lint\"></i>lint</span>"
    out += "</div>\n</div>\n"
    return out
  }

  /// The page's whole style sheet: layout, tables, and the fills of every key above.
  static var css: String {
    var out = """
      body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;\
      margin:20px 24px;color:#1c1c1e;background:#fff}
      h1{font-size:22px;margin:0 0 2px}h2{font-size:16px;margin:22px 0 8px}
      a{color:#0a64d8}.meta{color:#636366;margin:2px 0}.description{margin:6px 0 10px;max-width:70em}
      .badge{display:inline-block;padding:1px 8px;border-radius:9px;font-size:12px;font-weight:600;\
      color:#fff;vertical-align:3px;margin-left:6px}.badge-pass{background:#248a3d}.badge-fail{background:#d70015}
      .legend{display:flex;flex-wrap:wrap;gap:6px 22px;margin:10px 0 8px;font-size:12px}
      .legend-group{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
      .legend-title{font-weight:600;color:#3a3a3c}
      .key{display:inline-flex;align-items:center;gap:4px}
      .key i{display:inline-block;width:14px;height:10px;border-radius:2px;border:1px solid #c7c7cc}
      .key i.key-wake{width:0;height:12px;border:0;border-left:2px dashed #af52de;border-radius:0}
      .key i.key-lint{width:8px;height:8px;border:0;background:#ff3b30;transform:rotate(45deg)}
      .key i.key-undelivered{background:#a8e6b8;opacity:.45;border:1px dashed #3a3a3c}
      .key i.key-delivered{background:#a8e6b8}.key b.bytes{font-weight:600;color:#0a3d91}
      .scroll{overflow-x:auto}
      .timelines>label,.timelines>span{font-size:12px}.timelines>label{margin:0 14px 0 3px}
      .timelines>input{margin-left:0}.timeline-linear{display:none}
      #axis-linear:checked~.timeline-linear{display:block}#axis-linear:checked~.timeline-stretched{display:none}
      rect.bar.undelivered{fill-opacity:.4;stroke:#3a3a3c;stroke-dasharray:3 2}
      .bytes{font-weight:600}.seg-label .bytes{fill:#0a3d91}.seg-label.on-dark .bytes{fill:#fff}
      svg.timeline text{font:11px -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
      svg.timeline title{white-space:pre}
      .lane-label{text-anchor:end;fill:#3a3a3c;font-weight:600}
      .section{fill:#3a3a3c;font-weight:700;text-transform:uppercase;letter-spacing:.06em}
      .empty,.axis-note{fill:#8e8e93}.tick{text-anchor:middle;fill:#48484a}
      .grid{stroke:#e5e5ea}.axis-line{stroke:#8e8e93}
      rect.seg,rect.bar{stroke:#fff;stroke-width:1}
      .seg-label{fill:#1c1c1e;pointer-events:none}.seg-label.on-dark{fill:#fff}
      .wake{stroke:#af52de;stroke-width:1.5;stroke-dasharray:4 3}.wake-flag{fill:#af52de}
      .wake-label{fill:#8e2fb8;font-weight:600}
      .lint path{fill:#ff3b30}.lint-label{fill:#c41e16}
      table{border-collapse:collapse;font-size:13px;margin:4px 0}
      th,td{text-align:left;padding:4px 12px 4px 0;border-bottom:1px solid #e5e5ea;vertical-align:top}
      th{color:#636366;font-weight:600}td.ok{color:#248a3d;font-weight:700}td.bad{color:#d70015;font-weight:700}
      tr.fail td{background:#fff0f0}
      .error{background:#fff0f0;border:1px solid #ffb3b0;padding:8px 12px;border-radius:6px}
      pre.nearby{margin:2px 0 6px;background:#fff7f7}
      pre{font:12px/1.4 ui-monospace,Menlo,Consolas,monospace;background:#f7f7f9;padding:10px;overflow-x:auto}
      code{font:12px ui-monospace,Menlo,Consolas,monospace}

      """
    for key in app + network + power + rateLimiter + phases + reasons {
      out += "\(key.selector){fill:\(key.color)}\n"
    }
    return out
  }
}
