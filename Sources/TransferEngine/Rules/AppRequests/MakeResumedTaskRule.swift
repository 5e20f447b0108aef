import SimKernel

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Rule: the app makes a task from resume data, `downloadTask(withResumeData:)` or
/// `uploadTask(withResumeData:)` (behavior.md, "Resume data").
///
/// Data this simulation produced for that kind of task continues it. Garbage, stale data or
/// another kind's data still makes a task (as Darwin does), of the URL the data names (else
/// `unknownURL`), which fails when resumed; the rejection is traced as the task is made.
enum MakeResumedTaskRule {
  /// The URL a task made from unreadable resume data reports (the data names none).
  static let unknownURL = "https://invalid.invalid/"

  /// The task to make from `data` (`MakeTaskRule`), and why its data is rejected, if it is.
  struct Plan {
    let kind: SimURLSessionTask.Kind
    let url: String
    let contents: ResumeDataContents?
    let problem: ResumeDataError?
  }

  static func plan(_ data: Data, upload: Bool, engine: Engine) -> Plan {
    var recognised = engine.daemon.recognise(data)
    if case .success(let contents) = recognised, (contents.upload != nil) != upload {
      recognised = .failure(.wrongTaskKind)
    }
    switch recognised {
    case .success(let contents):
      let kind: SimURLSessionTask.Kind =
        contents.upload.map { .upload(fromFile: $0.fromFile, size: $0.bodySize) } ?? .download
      return Plan(kind: kind, url: contents.url.string, contents: contents, problem: nil)
    case .failure(let problem):
      let readable = try? ResumeDataContents(data)
      let kind: SimURLSessionTask.Kind =
        upload ? .upload(fromFile: true, size: readable?.upload?.bodySize ?? 0) : .download
      return Plan(kind: kind, url: readable?.url.string ?? unknownURL, contents: nil, problem: problem)
    }
  }

  /// The task made from rejected data: it fails with `cannotWriteToFile` when resumed.
  static func rejected(
    _ task: SimURLSessionTask, _ problem: ResumeDataError, engine: Engine, into effects: inout EffectBuffer
  ) {
    engine.tasks[task].record.resumeDataRejected(problem)
    effects.append(
      .trace(
        .taskResumeDataRejected,
        [
          TraceField("task", .string(task.name)), TraceField("session", .string(task.session.identifier)),
          TraceField("problem", .string(problem.name)),
        ]))
  }
}
