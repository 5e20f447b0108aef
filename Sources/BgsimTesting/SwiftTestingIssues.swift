#if canImport(Testing)
  import BgsimFoundation
  import ExplorationKit
  import Testing

  /// Records each finding of `report` as an issue at the caller's line, with its trace (JSON
  /// Lines), report page (HTML) and replay scenario attached where the toolchain has attachments (Swift 6.2+).
  public func expectNoFindings(_ report: ExplorationReport, sourceLocation: SourceLocation = #_sourceLocation)
  {
    record(TestIssue.issues(report), at: sourceLocation)
  }

  /// Records each lint the simulation traced (and a broken invariant) as an issue at the caller's line.
  public func expectNoIssues(_ sim: Simulation, sourceLocation: SourceLocation = #_sourceLocation) {
    record(TestIssue.issues(sim), at: sourceLocation)
  }

  /// Records a scenario run's failed expectations, run error and lints as issues at the caller's line.
  public func expectNoIssues(_ result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
    record(TestIssue.issues(result), at: sourceLocation)
  }

  private func record(_ issues: [TestIssue], at location: SourceLocation) {
    for issue in issues {
      Issue.record(Comment(rawValue: issue.message), sourceLocation: location)
      #if compiler(>=6.2)
        for (name, content) in issue.attachments {
          Attachment.record(content, named: name, sourceLocation: location)
        }
      #endif
    }
  }
#endif
