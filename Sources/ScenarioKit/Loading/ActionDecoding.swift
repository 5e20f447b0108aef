import SafeOutput
import SimKernel
import TransferEngine

/// The actions a timeline entry or a reaction can `do`.
enum ActionName: String, CaseIterable {
  case launch, background, terminate, forceQuit, reboot
  case download, upload, cancel, suspend, resume, resumeFromData, getAllTasks, invalidate
  case beginBackgroundTask, endBackgroundTask, dataTask
  case openExtension, closeExtension
  case submitContinuedProcessing, reportContinuedProgress, completeContinuedProcessing,
    cancelContinuedProcessing

  /// Actions of the app itself, the only ones a reaction may perform.
  static let appActions: [ActionName] = [
    .download, .upload, .cancel, .suspend, .resume, .resumeFromData, .getAllTasks, .invalidate,
    .beginBackgroundTask, .endBackgroundTask, .dataTask,
    .submitContinuedProcessing, .reportContinuedProgress, .completeContinuedProcessing,
  ]
}

/// Where an action is written, which decides what it may do and whether `{n}` is allowed.
enum ActionPlace {
  /// A timeline entry: user, system and app actions.
  case timeline
  /// A reaction's `do` list: app actions only, run in response to a delegate callback.
  case reaction
}

/// Reading one action object (`{"do": "download", "session": ..., ...}`).
enum ActionDecoding {
  static func action(_ r: inout ObjectReader, place: ActionPlace) -> TimelineAction? {
    let allowed = place == .timeline ? ActionName.allCases : ActionName.appActions
    let names = allowed.map(\.rawValue)
    let path = JSONPath.member(r.path, "do")
    guard let value = r.raw("do") else {
      r.context.report(
        .missingKey, r.path, at: r.value.position,
        "missing required key 'do' (one of \(names.joined(separator: ", ")))")
      r.acceptAll()
      return nil
    }
    guard let text = value.string else {
      r.context.wrongType(path, value, expected: "an action, one of \(names.joined(separator: ", "))")
      r.acceptAll()
      return nil
    }
    guard let name = ActionName(rawValue: text) else {
      let hint = Suggestion.didYouMean(text, among: names).map { "did you mean '\($0)'?" }
      r.context.invalid(
        path, value,
        "unknown action '\(TerminalText.shortened(text))'; \(hint ?? "expected one of \(names.joined(separator: ", "))")"
      )
      r.acceptAll()
      return nil
    }
    taskPlaceholders(&r, place: place)
    let inExtension = extensionOfAction(&r, name: name, place: place)
    if place == .reaction && !ActionName.appActions.contains(name) {
      r.context.invalid(
        path, value,
        "'\(text)' is an action of the user or the system; a reaction can only do \(names.joined(separator: ", "))"
      )
      r.acceptAll()
      return nil
    }
    switch name {
    case .launch: return .launch
    case .background: return .background
    case .terminate: return .terminate
    case .forceQuit: return .forceQuit
    case .reboot: return .reboot
    case .openExtension, .closeExtension:
      let name = name
      return r.reference("extension", .name("an extension name from app.extensions"), into: \.extensionUses)
        .map {
          name == .openExtension ? .openExtension($0) : .closeExtension($0)
        }
    case .download:
      let request = request(&r, place: place, method: .get, inExtension: inExtension)
      return request.map { performed(by: inExtension, .download($0)) }
    case .dataTask: return request(&r, place: place, method: .get).map { .app(.dataTask($0)) }
    case .upload:
      let request = request(&r, place: place, method: .upload, inExtension: inExtension)
      let from: UploadSource? = r.required("from", .enumeration("upload source"))
      let size = r.required("size", .size)
      guard let request, let from, let size else { return nil }
      return performed(by: inExtension, .upload(request, from: from, size: size))
    case .cancel:
      let task = r.reference("task", .name("a task name"), into: \.tasks)
      let resumeData = r.optional("produceResumeData", .bool)
      guard let task else { return nil }
      return .app(.cancel(task: task, produceResumeData: resumeData ?? false))
    case .suspend:
      return r.reference("task", .name("a task name"), into: \.tasks).map { .app(.suspend(task: $0)) }
    case .resume:
      return r.reference("task", .name("a task name"), into: \.tasks).map { .app(.resume(task: $0)) }
    case .resumeFromData:
      let task = r.reference("task", .name("a task name"), into: \.tasks)
      let numbering = numbering(&r, place: place)
      let numbered = place == .reaction || numbering.given
      let newName = createdName(&r, numbered: numbered)
      let fallback: ResumeFallback? = r.optional("withoutResumeData", .enumeration("fallback"))
      if !numbered, let task, task.hasNumberPlaceholder, let v = r.raw("task") {
        r.context.invalid(
          JSONPath.member(r.path, "task"), v,
          "'{n}' numbers the tasks of a reaction or of an entry with 'count'; this task needs a literal name")
      }
      if numbering.count > 1, let task, let newName,
        !newName.hasNumberPlaceholder || !task.hasNumberPlaceholder,
        let v = r.raw(newName.hasNumberPlaceholder ? "task" : "name")
      {
        let key = newName.hasNumberPlaceholder ? "task" : "name"
        let text = key == "task" ? task : newName
        r.context.invalid(
          JSONPath.member(r.path, key), v,
          "'count' resumes \(numbering.count) tasks, so '\(key)' needs '{n}' (like \"\(TerminalText.shortened(text))-{n}\") "
            + "to name a different task each time")
      }
      guard let task, let newName else { return nil }
      return .app(
        .resumeFromData(
          task: task, name: newName, withoutResumeData: fallback ?? .skip, count: numbering.count,
          firstNumber: numbering.firstNumber))
    case .getAllTasks:
      return r.reference("session", .name("a session identifier"), into: \.sessions).map {
        .app(.getAllTasks(session: $0))
      }
    case .invalidate:
      let session = r.reference("session", .name("a session identifier"), into: \.sessions)
      let cancelTasks = r.required("cancelTasks", .bool)
      guard let session, let cancelTasks else { return nil }
      return .app(.invalidate(session: session, cancelTasks: cancelTasks))
    case .beginBackgroundTask:
      return assertionName(&r, recordedIn: \.begunBackgroundTasks).map {
        .app(.beginBackgroundTask(name: $0))
      }
    case .endBackgroundTask:
      return assertionName(&r, recordedIn: \.endedBackgroundTasks).map { .app(.endBackgroundTask(name: $0)) }
    case .submitContinuedProcessing, .reportContinuedProgress, .completeContinuedProcessing,
      .cancelContinuedProcessing:
      return ContinuedProcessingDecoding.action(name, &r)
    }
  }

  /// The `name` of a background-task assertion: literal, since `endBackgroundTask` must name
  /// one a `beginBackgroundTask` opens.
  /// A background task's literal name, recorded in `uses` so the loader can match begins and ends.
  private static func assertionName(
    _ r: inout ObjectReader, recordedIn uses: WritableKeyPath<References, [References.Use]>
  ) -> String? {
    guard let name = r.required("name", .name("a background task name")), let v = r.raw("name") else {
      return nil
    }
    if name.hasPlaceholder {
      r.context.invalid(
        JSONPath.member(r.path, "name"), v,
        "a background task's name must be literal, so endBackgroundTask can name the one it ends")
      return nil
    }
    r.context.references[keyPath: uses].append(
      .init(name: name, path: JSONPath.member(r.path, "name"), position: v.position))
    return name
  }

  /// Records each `{task}` of a reaction's action for the check that its event names a task;
  /// reports it anywhere else (a timeline entry, a URL).
  private static func taskPlaceholders(_ r: inout ObjectReader, place: ActionPlace) {
    for member in r.value.members ?? [] {
      guard let text = member.value.string, text.hasTaskPlaceholder else { continue }
      let path = JSONPath.member(r.path, member.key)
      if place == .timeline {
        r.context.invalid(
          path, member.value,
          "'{task}' names the task that triggered a reaction; a timeline entry has none, so write the name")
      } else if !["task", "name", "description"].contains(member.key) {
        r.context.invalid(
          path, member.value, "'{task}' may appear in a reaction's 'task', 'name' and 'description' only")
      } else {
        r.context.references.taskPlaceholders.append(
          .init(name: text, path: path, position: member.value.position))
      }
    }
  }

  /// `extension` of a timeline `download` or `upload`: the extension that performs it (nil:
  /// the app). Reported on any other action, and in reactions (they run in the app).
  private static func extensionOfAction(_ r: inout ObjectReader, name: ActionName, place: ActionPlace)
    -> String?
  {
    guard name != .openExtension && name != .closeExtension, let v = r.raw("extension") else { return nil }
    guard place == .timeline, name == .download || name == .upload else {
      r.context.invalid(
        JSONPath.member(r.path, "extension"), v,
        place == .reaction
          ? "a reaction runs in the app, which gets every event; 'extension' belongs on a timeline download or upload"
          : "'extension' is allowed on download and upload entries only (an extension starts transfers; "
            + "bgsim models no other action of it)")
      return nil
    }
    return r.reference("extension", .name("an extension name from app.extensions"), into: \.extensionUses)
  }

  /// An app action, or the same action in the extension `name`.
  private static func performed(by name: String?, _ action: AppAction) -> TimelineAction {
    name.map { .inExtension($0, action) } ?? .app(action)
  }

  /// The fields `download` and `upload` share; `inExtension` names the extension that performs
  /// it, whose sessions `session` must name.
  private static func request(
    _ r: inout ObjectReader, place: ActionPlace, method: References.Method, inExtension: String? = nil
  )
    -> TaskRequest?
  {
    let session = r.reference(
      "session", .name("a session identifier"),
      into: inExtension == nil ? \.sessions : \.pendingExtensionSession)
    if let inExtension, let use = r.context.references.pendingExtensionSession.popLast() {
      r.context.references.extensionSessions.append((inExtension, use))
    }
    let url = r.reference("url", .name("a URL like \"https://example.com/file.zip\""), into: \.urls)
    if url != nil, let use = r.context.references.urls.last {
      r.context.references.requestMethods.append((method, use))
    }
    let numbering = numbering(&r, place: place)
    let count: Int? = numbering.given ? numbering.count : nil
    let numbered = place == .reaction || numbering.given
    let name = createdName(&r, numbered: numbered)
    let earliestBegin = r.optional("earliestBegin", .instantOrRelative)
    let expectsToSend = r.optional("expectsToSend", .size)
    let expectsToReceive = r.optional("expectsToReceive", .size)
    let description = r.optional("description", .string)
    let priority = r.optional("priority", .number(0...1, "a priority from 0 to 1"))
    let constrained = r.optional("allowsConstrainedNetworkAccess", .bool)
    if !numbered, let url, url.hasNumberPlaceholder, let v = r.raw("url") {
      r.context.invalid(
        JSONPath.member(r.path, "url"), v,
        "'{n}' numbers the tasks of a reaction or of an entry with 'count'; this URL must be literal")
    }
    if let count, count > 1, let name, !name.hasNumberPlaceholder, let v = r.raw("name") {
      r.context.invalid(
        JSONPath.member(r.path, "name"), v,
        "'count' creates \(count) tasks, which would all be named '\(TerminalText.shortened(name))'; "
          + "put '{n}' in the name (like \"\(TerminalText.shortened(name))-{n}\") so each has its own")
    }
    guard let session, let url, let name else { return nil }
    var request = TaskRequest(
      session: session, url: url, name: name, earliestBegin: earliestBegin, expectsToSend: expectsToSend,
      expectsToReceive: expectsToReceive, description: description, priority: priority, count: count ?? 1,
      firstNumber: numbering.firstNumber)
    request.allowsConstrainedNetworkAccess = constrained
    return request
  }

  /// `count` and `firstNumber` of an action that creates tasks (`download`, `upload`,
  /// `resumeFromData`): on a timeline entry, `count` numbered tasks, `{n}` running from
  /// `firstNumber`; in a reaction both are refused, since the reaction numbers its tasks.
  private static func numbering(_ r: inout ObjectReader, place: ActionPlace) -> (
    count: Int, firstNumber: Int, given: Bool
  ) {
    let count = r.optional("count", .int(1...100_000, "a number of tasks from 1 to 100000"))
    let first = r.optional("firstNumber", .int(0...1_000_000, "the number {n} takes for the first task"))
    if place == .timeline, let count, let v = r.raw("count") {
      r.context.references.taskCounts.append(
        (count, .init(name: "", path: JSONPath.member(r.path, "count"), position: v.position)))
    }
    if place == .timeline, first != nil, count == nil, let v = r.raw("firstNumber") {
      r.context.invalid(
        JSONPath.member(r.path, "firstNumber"), v,
        "'firstNumber' numbers the tasks of 'count'; add \"count\" (1 for a single numbered task)")
    }
    if place == .reaction {
      for key in ["count", "firstNumber"] {
        guard let v = r.raw(key) else { continue }
        r.context.invalid(
          JSONPath.member(r.path, key), v,
          "'\(key)' numbers the tasks of a timeline entry; a reaction numbers its tasks with '{n}' already, "
            + "from the reaction's own 'firstNumber'")
      }
    }
    return (count ?? 1, first ?? 1, place == .timeline && count != nil)
  }

  /// The `name` of a task the action creates; `{n}` is allowed only where tasks are numbered
  /// (reactions, and timeline entries with `count`).
  private static func createdName(_ r: inout ObjectReader, numbered: Bool) -> String? {
    guard let name = r.required("name", .name("a task name")) else { return nil }
    if !numbered && name.hasNumberPlaceholder, let v = r.raw("name") {
      r.context.invalid(
        JSONPath.member(r.path, "name"), v,
        "'{n}' numbers the tasks of a reaction or of an entry with 'count'; this task needs a literal name")
      return nil
    }
    if let v = r.raw("name") {
      r.context.references.createdTasks.append(
        .init(name: name, path: JSONPath.member(r.path, "name"), position: v.position))
    }
    return name
  }
}

extension ValueType where T == [TimelineEntry] {
  /// `timeline`: entries sorted by time, file order for equal times, each keeping its original path.
  static var timeline: ValueType<[TimelineEntry]> {
    .objects("a timeline entry like {\"at\": \"1m\", \"do\": \"launch\"}") { r in
      let at = r.required("at", .instant)
      if let at, let v = r.raw("at") {
        r.context.references.timelineInstants.append(
          (at, .init(name: "", path: JSONPath.member(r.path, "at"), position: v.position)))
      }
      let action = ActionDecoding.action(&r, place: .timeline)
      guard let at, let action else { return nil }
      return TimelineEntry(at: at, action: action, path: r.path)
    }
  }
}
