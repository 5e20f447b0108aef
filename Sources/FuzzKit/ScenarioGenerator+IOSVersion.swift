import ScenarioKit
import SimKernel
import TransferEngine

extension ScenarioGenerator {
  /// A device iOS version (from 16 to the newest), its knob defaults with an explicit override
  /// now and then, and the draft each resumable upload target speaks. Draws come from their own
  /// stream, so the rest of a seed's scenario is what it was before versions were generated.
  mutating func addIOSVersion(
    device: inout DeviceModel, policy: inout Policy, server: inout ServerModel,
    timeline: inout [TimelineEntry]
  ) {
    var draws = SeededGenerator(seed: seed ^ 0x1057_0E25_0000_0000)
    guard draws.nextUnit() < 0.4 else { return }
    let versions = ["16", "17", "18", "18.1", "26"].compactMap(IOSVersion.init)
    let version = draws.choice(versions)
    device.iosVersion = version
    if draws.nextUnit() < 0.85 {
      policy.resumableUploads = version.resumableUploadDraft != nil
      policy.resumableUploadDraft = version.resumableUploadDraft ?? .v3
    }
    for i in server.resources.indices where server.resources[i].resumableUploads {
      let drafts: [ResumableUploadDraft?] = [nil, .v3, .v5, .v6]
      server.resources[i].resumableUploadDraft = draws.choice(drafts)
    }
    // Later draws, so the ones above stay what they were for every seed.
    addVersionUpload(server: &server, timeline: &timeline, draws: &draws)
    addOlderServerDraft(policy: policy, server: &server, draws: &draws)
    let device = policy.resumableUploadDraft
    let older = Set(
      server.resources.filter { $0.resumableUploads && ($0.resumableUploadDraft ?? device) < device }.map(
        \.url.string))
    addUploadFollowUps(version: version, olderDraftTargets: older, timeline: &timeline, draws: &draws)
  }

  /// Most timelines have no upload (a third of servers have no upload target): now and then an
  /// upload target that speaks the draft, and an upload to one a few seconds into the first
  /// foreground stretch, so the version's upload rules are exercised.
  private mutating func addVersionUpload(
    server: inout ServerModel, timeline: inout [TimelineEntry], draws: inout SeededGenerator
  ) {
    guard draws.nextUnit() < 0.6 else { return }
    if uploads.isEmpty {
      let url = SimURL("https://up.example.com/v")!
      var target = ServerResource(url: url, size: 0, status: 201, method: "PUT")
      target.resumableUploads = true
      server.resources.append(target)
      uploads.append(url)
    }
    guard let launch = timeline.firstIndex(where: { if case .launch = $0.action { true } else { false } })
    else { return }
    let at = timeline[launch].at + .seconds(Int64(draws.uniform(1...5)))
    let stretchEnd =
      timeline[(launch + 1)...].first { if case .app = $0.action { false } else { true } }?.at
      ?? SimTime(duration)
    guard at < stretchEnd, at.sinceStart <= duration else { return }
    let request = TaskRequest(
      session: draws.choice(sessions).identifier, url: draws.choice(uploads).string, name: newName())
    let size = Int64(draws.uniform(1...100)) * 1_000_000
    let upload = TimelineAction.app(.upload(request, from: .file, size: size))
    let all = timeline.map { ($0.at, $0.action) } + [(at, upload)]
    timeline = all.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
      .enumerated().map { i, e in TimelineEntry(at: e.element.0, action: e.element.1, path: "timeline[\(i)]")
      }
  }

  /// Now and then a resumable target that speaks only a draft older than the device's: its
  /// uploads give no resume data and, stopped part-way, start again (`uploadDraftMismatch`).
  private func addOlderServerDraft(policy: Policy, server: inout ServerModel, draws: inout SeededGenerator) {
    let older = ResumableUploadDraft.allCases.filter { $0 < policy.resumableUploadDraft }
    guard draws.nextUnit() < 0.7, !older.isEmpty,
      let i = server.resources.indices.first(where: { server.resources[$0].resumableUploads })
    else { return }
    server.resources[i].resumableUploadDraft = draws.choice(older)
  }

  /// The app pauses some of the timeline's uploads soon after starting them: with
  /// `cancel(byProducingResumeData:)` and a `resumeFromData` (before iOS 17 the cancel is linted
  /// `apiUnavailable`), or with `suspend()` and `resume()` (a restart from zero, or from the
  /// server's offset, by the draft). Each follow-up stays inside the upload's foreground stretch.
  /// Uploads to a target on an older draft than the device's are paused more often, mostly with
  /// `suspend()`, so that some restart for `uploadDraftMismatch`.
  private mutating func addUploadFollowUps(
    version: IOSVersion, olderDraftTargets: Set<String>, timeline: inout [TimelineEntry],
    draws: inout SeededGenerator
  ) {
    var added: [(SimTime, TimelineAction)] = []
    for (i, entry) in Array(timeline.enumerated()) {
      guard case .app(.upload(let request, let from, _)) = entry.action else { continue }
      let mismatched = olderDraftTargets.contains(request.url)
      // Large enough (20-200 MB) to be still sending when it is paused.
      if mismatched && draws.nextUnit() < 0.7 {
        let size = Int64(draws.uniform(20...200)) * 1_000_000
        timeline[i].action = .app(.upload(request, from: from, size: size))
      }
      guard draws.nextUnit() < (mismatched ? 0.9 : 0.6) else { continue }
      // The stretch ends at the next entry that is not the app's own (`background`, a termination).
      let stretchEnd =
        timeline[(i + 1)...].first { if case .app = $0.action { false } else { true } }?.at
        ?? SimTime(duration)
      let cancels = draws.nextUnit() < (mismatched ? 0.3 : (version.hasUploadResumeData ? 0.5 : 0.8))
      // Before iOS 17 a cancel soon after the start, while the upload surely runs: its lint.
      let wait = cancels && !version.hasUploadResumeData ? 0...3 : (mismatched ? 3...20 : 1...10)
      let pause = entry.at + .seconds(Int64(draws.uniform(wait)))
      let resume = pause + .seconds(Int64(draws.uniform(1...30)))
      guard resume < stretchEnd, resume.sinceStart <= duration else { continue }
      if cancels {
        added.append((pause, .app(.cancel(task: request.name, produceResumeData: true))))
        added.append((resume, .app(.resumeFromData(task: request.name, name: newName(cancellable: false)))))
      } else {
        added.append((pause, .app(.suspend(task: request.name))))
        added.append((resume, .app(.resume(task: request.name))))
      }
    }
    guard !added.isEmpty else { return }
    let all = timeline.map { ($0.at, $0.action) } + added
    // Stable by time: an added entry comes after the entries of the same instant.
    timeline = all.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
      .enumerated().map { i, e in TimelineEntry(at: e.element.0, action: e.element.1, path: "timeline[\(i)]")
      }
  }
}
