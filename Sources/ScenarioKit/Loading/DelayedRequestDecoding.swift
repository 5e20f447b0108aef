import TransferEngine

/// `app.behavior.willBeginDelayedRequest`: the scripted app's answers.
enum DelayedRequestDecoding {
  static let noun = "an answer like {\"task\": \"feed-*\", \"answer\": \"continueLoading\"}"

  /// `{"task": "feed-*", "answer": "useNewRequest", "url": "https://example.com/feed.json"}`.
  static func answer(_ r: inout ObjectReader) -> DelayedRequestAnswer? {
    let task = r.optional("task", .name("a task name pattern"))
    let answer: DelayedRequestAnswer.Disposition? = r.required("answer", .enumeration("answer"))
    var url: String?
    if answer == .useNewRequest {
      url = r.reference("url", .name("a URL like \"https://example.com/file.zip\""), into: \.urls)
    } else if let answer, let v = r.raw("url") {
      _ = r.optional("url", .string)
      r.context.invalid(
        JSONPath.member(r.path, "url"), v,
        "'url' is the new request of a 'useNewRequest' answer; '\(answer.rawValue)' takes none, "
          + "so remove it or answer 'useNewRequest'")
    }
    guard let answer else { return nil }
    return DelayedRequestAnswer(task: task, answer: answer, url: url, path: r.path)
  }
}
