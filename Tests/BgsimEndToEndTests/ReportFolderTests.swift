import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Report folders that never lose a page (issue 28): a page per scenario file, and an index
/// that lists every page once, even when reports run into one folder at the same time.
@Suite struct ReportFolderTests {
  static func scenario(_ name: String) -> String {
    OutputSafetyTests.scenario.replacingOccurrences(of: "\"one-download\"", with: "\"\(name)\"")
  }

  /// The links of `index.html` in `folder`, in order.
  static func links(_ sandbox: BgsimSandbox, _ folder: String) throws -> [String] {
    let index = try String(
      contentsOf: sandbox.directory.appendingPathComponent(folder + "/index.html"), encoding: .utf8)
    return index.components(separatedBy: "<a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
  }

  static func pages(_ sandbox: BgsimSandbox, _ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent(folder).path)
      .filter { $0.hasSuffix(".html") && $0 != "index.html" }.sorted()
  }

  @Test func sameNamedScenariosOfTwoFoldersKeepBothPages() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("a/x.json", Self.scenario("x"))
    try sandbox.write(
      "b/x.json", Self.scenario("x").replacingOccurrences(of: "\"seed\": 1", with: "\"seed\": 2"))
    #expect(try sandbox.run(["report", "a", "--out", "out"]).status == 0)
    let second = try sandbox.run(["report", "b", "--out", "out"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout == "out/x-2.html\nout/index.html\n")
    #expect(try Self.pages(sandbox, "out") == ["x-2.html", "x.html"])
    #expect(try Self.links(sandbox, "out").sorted() == ["x-2.html", "x.html"])
    let first = try String(
      contentsOf: sandbox.directory.appendingPathComponent("out/x.html"), encoding: .utf8)
    #expect(first.contains("<code>a/x.json</code> · seed 1"))
    let other = try String(
      contentsOf: sandbox.directory.appendingPathComponent("out/x-2.html"), encoding: .utf8)
    #expect(other.contains("<code>b/x.json</code> · seed 2"))
    // Reporting either folder again replaces its own page only (spelled another way, too).
    let again = try sandbox.run(["report", "./a/", "--out", "out"])
    #expect(again.stdout.hasPrefix("out/x.html\n"), "\(again.stdout)")
    #expect(try Self.pages(sandbox, "out") == ["x-2.html", "x.html"])
    #expect(try Self.links(sandbox, "out").sorted() == ["x-2.html", "x.html"])
  }

  /// A file named twice, by a folder and by itself or through a link, has one page, and
  /// `check` runs it once; a note says which path was skipped.
  @Test func aFileNamedTwiceIsTakenOnce() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("a/x.json", Self.scenario("x"))
    try sandbox.write("a/y.json", Self.scenario("y"))
    #expect(symlink("a/x.json", sandbox.directory.appendingPathComponent("link.json").path) == 0)
    let report = try sandbox.run(["report", "a", "a/x.json", "./a/x.json", "link.json", "--out", "out"])
    #expect(report.status == 0, "\(report.stderr)")
    #expect(report.stdout == "out/x.html\nout/y.html\nout/index.html\n")
    #expect(try Self.pages(sandbox, "out") == ["x.html", "y.html"])
    #expect(try Self.links(sandbox, "out") == ["x.html", "y.html"])
    #expect(
      report.stderr
        == "bgsim: note: skipped 'a/x.json': named twice, taken once\n"
        + "bgsim: note: skipped './a/x.json': the same file as 'a/x.json', taken once\n"
        + "bgsim: note: skipped 'link.json': the same file as 'a/x.json', taken once\n")
    let check = try sandbox.run(["check", "a", "a/y.json"])
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stdout.hasSuffix("2 passed, 0 failed\n"), "\(check.stdout)")
  }

  @Test func aPageNeverTakesTheNameOfAnotherFileInTheFolder() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("x.json", Self.scenario("x"))
    try sandbox.write("out/x.html", "<p>mine</p>\n")
    let result = try sandbox.run(["report", "x.json", "--out", "out"])
    #expect(result.stdout == "out/x-2.html\nout/index.html\n")
    #expect(
      try String(contentsOf: sandbox.directory.appendingPathComponent("out/x.html"), encoding: .utf8)
        == "<p>mine</p>\n")
  }

  /// Eight reports at once into one folder, five scenarios each: all forty pages listed once.
  @Test func concurrentReportsKeepEveryEntry() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    for group in 1...8 {
      for item in 1...5 {
        try sandbox.write("g\(group)/s\(item).json", Self.scenario("g\(group)-s\(item)"))
      }
    }
    let executable = try BgsimSandbox.executable()
    let processes = try (1...8).map { group -> Process in
      let process = Process()
      process.executableURL = executable
      process.arguments = ["report", "g\(group)", "--out", "out"]
      process.currentDirectoryURL = sandbox.directory
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    let expected = (1...8).flatMap { g in (1...5).map { "g\(g)-s\($0).html" } }.sorted()
    #expect(try Self.pages(sandbox, "out") == expected)
    #expect(try Self.links(sandbox, "out").sorted() == expected)
    let manifest = try String(
      contentsOf: sandbox.directory.appendingPathComponent("out/index.jsonl"), encoding: .utf8)
    #expect(manifest.split(separator: "\n").count == 40)
  }
}
