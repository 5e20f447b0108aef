import ScenarioKit
import SimKernel
import TransferEngine

/// App extensions in generated scenarios (behavior.md, "App extensions"), drawn from a stream of
/// their own so every earlier draw of a seed stays as it was.
extension ScenarioGenerator {
  /// Sometimes adds a share extension: its sessions (with or without a shared container,
  /// sometimes an identifier the app uses too, for -995 and -996), runs of it opened and closed
  /// (or left open) at random, and downloads and uploads it starts while open.
  static func addExtension(
    seed: UInt64, duration: SimDuration, app: inout AppSpec, timeline: inout [TimelineEntry],
    server: ServerModel
  ) {
    var random = SeededGenerator(seed: seed ^ 0xE47E_2027_0000_0000)
    guard random.nextUnit() < 0.25 else { return }
    let downloads = server.resources.filter { $0.method == "GET" }.map(\.url.string)
    let uploads = server.resources.filter { $0.method != "GET" }.map(\.url.string)
    guard !downloads.isEmpty else { return }
    var sessions = [
      SessionConfiguration(
        identifier: "ExtUploads", kind: .background,
        isDiscretionary: random.nextUnit() < 0.2,
        sharedContainerIdentifier: random.nextUnit() < 0.8 ? "group.fuzz" : nil)
    ]
    if let shared = app.sessions.first(where: { $0.kind == .background }), random.nextUnit() < 0.3 {
      var same = shared
      same.sharedContainerIdentifier = "group.fuzz"
      sessions.append(same)
    }
    app.extensions = [ExtensionSpec(name: "Share", sessions: sessions)]
    var added: [(SimTime, TimelineAction)] = []
    var start = SimTime(.seconds(Int64(random.uniform(0...max(1, Int(duration.seconds))))))
    var made = 0
    for _ in 0..<random.uniform(1...3) {
      added.append((start, .openExtension("Share")))
      let open = SimDuration.seconds(Int64(random.uniform(1...120)))
      for _ in 0..<random.uniform(0...3) {
        made += 1
        let at = start + .seconds(Int64(random.uniform(0...Int(open.seconds))))
        let session = random.choice(sessions).identifier
        var request = TaskRequest(session: session, url: random.choice(downloads), name: "ext\(made)")
        if !uploads.isEmpty && random.nextUnit() < 0.5 {
          request.url = random.choice(uploads)
          let from: UploadSource = random.nextUnit() < 0.85 ? .file : .data
          added.append(
            (
              at,
              .inExtension(
                "Share", .upload(request, from: from, size: 1_000 + Int64(random.uniform(0...4_000_000))))
            ))
        } else {
          added.append((at, .inExtension("Share", .download(request))))
        }
      }
      // Sometimes the user never leaves it before the run ends.
      guard random.nextUnit() < 0.9 else { break }
      added.append((start + open, .closeExtension("Share")))
      start = start + open + .seconds(Int64(random.uniform(1...3_600)))
    }
    added = added.filter { $0.0.sinceStart <= duration }
    let sorted = (timeline.map { ($0.at, $0.action) } + added).enumerated()
      .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    // A reboot of the timeline ends the extension: its actions after one, until it is opened
    // again, would only stop the run ("not running"), so they are left out.
    var running = false
    let merged = sorted.filter { entry in
      switch entry.1 {
      case .openExtension: running = true
      case .reboot: running = false
      case .inExtension: return running
      default: break
      }
      return true
    }
    timeline = merged.enumerated().map { i, e in TimelineEntry(at: e.0, action: e.1, path: "timeline[\(i)]") }
  }
}
