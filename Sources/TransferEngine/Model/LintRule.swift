/// A documented rule an app can break; the run reports each break as a `lint` trace event.
public enum LintRule: String, CaseIterable, Hashable, Sendable {
  case completionHandlerNeverCalled
  case completionHandlerCalledEarly
  case sessionNotRecreated
  case downloadedFileLost
  case uploadFromData
  case duplicateSessionIdentifier
  case resumeDataReused
  case oneTaskPerWake
}
