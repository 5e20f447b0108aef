/// One entry of `app.behavior.willBeginDelayedRequest`: how the scripted app answers
/// `urlSession(_:task:willBeginDelayedRequest:completionHandler:)` for tasks whose name matches
/// `task`. Giving the list at all makes the scripted delegate implement the method.
public struct DelayedRequestAnswer: Sendable {
  /// `URLSession.DelayedRequestDisposition`, as the format names it.
  public enum Disposition: String, Sendable, CaseIterable {
    /// Start the task with its original request.
    case continueLoading
    /// Start it with a new request, to `url`.
    case useNewRequest
    /// Cancel the task (-999).
    case cancel
  }

  /// Task name pattern with `*` wildcards; nil matches every task.
  public var task: String?
  /// How the scripted app answers a matching task's `willBeginDelayedRequest`.
  public var answer: Disposition
  /// `useNewRequest` only: the new request's URL; may hold `{task}`.
  public var url: String?
  /// JSON path of the entry, for run-time messages.
  public var path: String

  /// An entry answering `answer` for tasks matching `task`, found at `path`.
  public init(task: String? = nil, answer: Disposition, url: String? = nil, path: String) {
    self.task = task
    self.answer = answer
    self.url = url
    self.path = path
  }
}
