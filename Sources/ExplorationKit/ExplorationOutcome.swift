import Foundation
import SimKernel

/// What one run of a world left, as the oracles compare it with the baseline's: the files under
/// the container's `Documents` and `Library/Application Support` by path and content digest, and
/// the app's own account (`UserVisibleState`), read after the settle time.
public struct ExplorationOutcome: Sendable {
  /// The app's container (nil when the subject has none); valid while the property runs.
  public var containerDirectory: URL?
  /// The outcome files at the end of the world, before the user's final launch.
  public var filesAtEnd: [String: String]
  /// The outcome files after the settle time.
  public var files: [String: String]
  /// The app's account after the settle time, nil when its delegate keeps none.
  public var account: String?
  /// The run's trace.
  public var trace: TraceLog

  /// An outcome as a run left it.
  public init(
    containerDirectory: URL?, filesAtEnd: [String: String], files: [String: String], account: String?,
    trace: TraceLog
  ) {
    self.containerDirectory = containerDirectory
    self.filesAtEnd = filesAtEnd
    self.files = files
    self.account = account
    self.trace = trace
  }

  /// One digest of the whole outcome (files at both moments and the account).
  public var digest: String {
    var text = ""
    for (path, digest) in filesAtEnd.sorted(by: { $0.key < $1.key }) { text += "end \(path) \(digest)\n" }
    for (path, digest) in files.sorted(by: { $0.key < $1.key }) { text += "settled \(path) \(digest)\n" }
    text += "account\n" + (account ?? "")
    return ContentDigest.ofText(text)
  }

  /// What differs from `baseline`, one line each (empty when nothing does): the files by path and
  /// the account by line, named at the moment they differ.
  public func differences(from baseline: ExplorationOutcome) -> [String] {
    var lines = Self.fileDifferences(filesAtEnd, baseline.filesAtEnd, moment: "at the end of the world")
    lines += Self.fileDifferences(files, baseline.files, moment: "after the user's launch and settle time")
    if account != baseline.account {
      let mine = (account ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let theirs = (baseline.account ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
      let lost = theirs.filter { !mine.contains($0) }
      let gained = mine.filter { !theirs.contains($0) }
      for line in lost { lines.append("the account's line '\(line)' (baseline) is missing") }
      for line in gained { lines.append("the account has '\(line)', which the baseline does not") }
      if lost.isEmpty && gained.isEmpty { lines.append("the account's lines come in another order") }
    }
    return lines
  }

  static func fileDifferences(_ mine: [String: String], _ theirs: [String: String], moment: String)
    -> [String]
  {
    var lines: [String] = []
    for path in Set(mine.keys).union(theirs.keys).sorted() {
      switch (theirs[path], mine[path]) {
      case (nil, _?): lines.append("\(path) exists \(moment) but not in the baseline")
      case (_?, nil): lines.append("\(path) is missing \(moment) (the baseline has it)")
      case (let a?, let b?) where a != b: lines.append("\(path) has other content \(moment)")
      default: break
      }
    }
    return lines
  }
}
