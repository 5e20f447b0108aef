import TransferEngine

/// One entry of `app.behavior.didReceiveChallenge`: how the scripted delegate answers an
/// authentication challenge for a matching task.
public struct ChallengeAnswer: Sendable {
  /// Task name pattern with `*` wildcards; nil matches every task.
  public var task: String?
  /// The entry answers at most this many challenges (nil: every one); later ones fall to the
  /// next entry that matches.
  public var times: Int?
  /// The answer given, as `URLSession.AuthChallengeDisposition` with its credential.
  public var answer: SimAuthChallengeDisposition
  /// JSON path of the entry, for run-time messages.
  public var path: String

  /// An entry answering `answer` for tasks matching `task`, found at `path`.
  public init(task: String? = nil, times: Int? = nil, answer: SimAuthChallengeDisposition, path: String) {
    self.task = task
    self.times = times
    self.answer = answer
    self.path = path
  }
}
