#if canImport(XCTest)
  import BgsimFoundation
  import ExplorationKit
  import Foundation
  import XCTest

  /// Fails the test at the caller's line once per finding of `report`; on Darwin the finding's
  /// trace (JSON Lines), report page (HTML) and replay scenario are attached to the running test.
  public func XCTAssertNoFindings(
    _ report: ExplorationReport, file: StaticString = #filePath, line: UInt = #line
  ) {
    fail(TestIssue.issues(report), file: file, line: line)
  }

  /// Fails the test once per lint the simulation traced (and for a broken invariant).
  public func XCTAssertNoIssues(_ sim: Simulation, file: StaticString = #filePath, line: UInt = #line) {
    fail(TestIssue.issues(sim), file: file, line: line)
  }

  /// Fails the test once per failed expectation, run error and lint of a scenario run.
  public func XCTAssertNoIssues(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) {
    fail(TestIssue.issues(result), file: file, line: line)
  }

  private func fail(_ issues: [TestIssue], file: StaticString, line: UInt) {
    for issue in issues {
      #if canImport(Darwin)
        attach(issue.attachments)
      #endif
      XCTFail(issue.message, file: file, line: line)
    }
  }

  #if canImport(Darwin)
    /// Adds the files to the running test's results, in an activity. XCTest runs tests on the
    /// main thread, where `XCTContext.runActivity` (main-actor isolated) may be called; elsewhere
    /// the files are left out rather than hopping threads.
    private func attach(_ files: [(name: String, content: String)]) {
      guard Thread.isMainThread else { return }
      let body: @MainActor () -> Void = {
        XCTContext.runActivity(named: "bgsim") { activity in
          for (name, content) in files {
            let attachment = XCTAttachment(string: content)
            attachment.name = name
            attachment.lifetime = .keepAlways
            activity.add(attachment)
          }
        }
      }
      // On the main thread the main actor's isolation holds (`MainActor.assumeIsolated` needs macOS 14).
      unsafeBitCast(body, to: (() -> Void).self)()
    }
  #endif
#endif
