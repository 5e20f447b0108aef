import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What CI systems read from `bgsim check` and `validate`: JUnit XML, JSON, GitHub annotations,
/// `FILE:LINE:COL` locations, and no green run when nothing was checked.
@Suite("check and validate for CI, end to end")
struct CIOutputTests {
  /// The JUnit file of the whole shipped library parses, with one passing testcase per scenario.
  @Test func junitOfTheShippedScenarios() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    let scenarios = BgsimSandbox.packageRoot.appendingPathComponent("Scenarios").path
    let result = try box.run(["check", scenarios, "--junit", "junit.xml", "-q"])
    #expect(result.status == 0)
    let report = try JUnitDocument(url: box.directory.appendingPathComponent("junit.xml"))
    let files = try FileManager.default.contentsOfDirectory(atPath: scenarios).filter {
      $0.hasSuffix(".json")
    }
    #expect(report.testcases.count == files.count)
    #expect(report.testcases.count >= 31)
    #expect(report.suites.first?["tests"] == String(files.count))
    #expect(report.suites.first?["failures"] == "0")
    #expect(report.testcases.allSatisfy { $0["classname"]?.hasSuffix("Scenarios") == true })
    #expect(report.testcases.contains { $0["name"] == "rate-limiter-one-task-per-wake" })
    #expect(report.failures.isEmpty && report.errors.isEmpty)
  }

  /// A failure carries the expected/found message and the nearest trace lines; an invalid
  /// scenario is an error; the counts add up.
  @Test func junitOfFailures() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/late.json", CheckCommandTests.scenario(name: "late", expectBy: "1s"))
    try box.write("s/fine.json", CheckCommandTests.scenario(name: "fine", expectBy: "2s"))
    try box.write("s/bad.json", #"{"name": "bad <&>", "duration": "-5s"}"#)
    let result = try box.run(["check", "s", "--junit", "out/junit.xml"])
    #expect(result.status == 74)
    #expect(
      !FileManager.default.fileExists(atPath: box.directory.appendingPathComponent("out/junit.xml").path))
    #expect(result.stderr.hasSuffix("bgsim: cannot write 'out/junit.xml': no such directory\n"))
    _ = try box.run(["check", "s", "--junit", "junit.xml"])
    let report = try JUnitDocument(url: box.directory.appendingPathComponent("junit.xml"))
    #expect(report.testcases.map { $0["name"] } == ["bad", "fine", "late"])
    #expect(report.suites.first?["tests"] == "3")
    #expect(report.suites.first?["failures"] == "1")
    #expect(report.suites.first?["errors"] == "1")
    #expect(report.failures.first?.attributes["message"] == "expect[0]: task 'a' completed by 1s")
    #expect(report.failures.first?.text.contains("instead: task 'a' is completed since 1.06s") == true)
    #expect(report.failures.first?.text.contains("1.06s  task      finished a session=S") == true)
    #expect(
      report.errors.first?.text.hasPrefix("s/bad.json:1:33: error: duration: negative duration") == true)
  }

  @Test func githubAnnotationOfAFailingScenario() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/late.json", CheckCommandTests.scenario(name: "late", expectBy: "1s"))
    let result = try box.run(["check", "s", "--format", "github"])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("FAIL  s/late.json  (simulated 1.06s") == true)
    #expect(
      lines.dropFirst().first?.hasPrefix(
        "::error file=s/late.json,line=7,col=13::expect[0]: task 'a' completed by 1s"
          + "%0Ainstead: task 'a' is completed since 1.06s%0Anearest trace lines:%0A") == true)
    #expect(lines.last == "0 passed, 1 failed")
    let invalid = try box.run(["validate", "s/late.json", "--format", "github"])
    #expect(invalid.stdout == "s/late.json: ok\n")
    try box.write("t/bad.json", "{\"name\": \"x\",\n \"seed\": \"42\"}")
    let bad = try box.run(["validate", "t", "--format", "github"])
    #expect(
      bad.stdout
        == "::error file=t/bad.json,line=2,col=10::seed: expected a seed, an integer from 0 to 18446744073709551615, "
        + "found the string \"42\"\n")
    #expect(bad.status == 2)
  }

  @Test func jsonFormatParses() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/late.json", CheckCommandTests.scenario(name: "late", expectBy: "1s"))
    try box.write("s/fine.json", CheckCommandTests.scenario(name: "fine", expectBy: "2s"))
    let result = try box.run(["check", "s", "--format", "json"])
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["passed"] as? Int == 1)
    #expect(object["failed"] as? Int == 1)
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    #expect(scenarios.map { $0["status"] as? String } == ["passed", "failed"])
    let problem = try #require((scenarios[1]["problems"] as? [[String: Any]])?.first)
    #expect(problem["line"] as? Int == 7)
    #expect(problem["column"] as? Int == 13)
    #expect(problem["path"] as? String == "expect[0]")
    let validate = try box.run(["validate", "s", "--format", "json"])
    let files = try #require(
      try JSONSerialization.jsonObject(with: Data(validate.stdout.utf8)) as? [String: Any])
    #expect(files["valid"] as? Int == 2)
    #expect(validate.status == 0)
    let bad = try box.run(["check", "s", "--format", "xml"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("bgsim: --format expects one of text, json, github, found 'xml'\n"))
  }

  @Test func noScenariosIsAnError() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try FileManager.default.createDirectory(
      at: box.directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
    let result = try box.run(["check", "empty"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("bgsim: no scenarios under 'empty'"))
    try box.write("notes/package.json", #"{"dependencies": {}}"#)
    let skipped = try box.run(["check", "notes"])
    #expect(skipped.status == 2)
    #expect(
      skipped.stderr.hasPrefix(
        "bgsim: note: skipped 'notes/package.json': not a scenario (no key of a scenario's top level"))
    let validate = try box.run(["validate", "empty"])
    #expect(validate.status == 2)
  }

  /// A folder linked into itself is walked once, not forever.
  @Test func symbolicLinkLoopsDoNotHang() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    try FileManager.default.createSymbolicLink(
      atPath: box.directory.appendingPathComponent("s/loop").path,
      withDestinationPath: box.directory.appendingPathComponent("s").path)
    let result = try box.run(["check", "s", "-q"])
    #expect(result.status == 0)
    #expect(result.stdout == "1 passed, 0 failed\n")
  }

  /// Workflow-command escaping: a comma or colon in a file name cannot break the annotation.
  @Test func githubAnnotationEscapesTheFileName() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("a,b:c.json", #"{"name": "x", "seed": -1}"#)
    let result = try box.run(["validate", "a,b:c.json", "--format", "github"])
    #expect(result.stdout.hasPrefix("::error file=a%2Cb%3Ac.json,line=1,col=23::seed: -1 is out of range"))
  }

  /// `check .` at the repository root walks past `.build`, `Tests` and `Reports` and gives the
  /// verdicts of `check Scenarios`, line for line (wall times aside).
  @Test func checkDotEqualsCheckScenarios() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    let root = BgsimSandbox.packageRoot
    let dot = try box.run(["check", "."], in: root)
    let scenarios = try box.run(["check", "Scenarios"], in: root)
    func verdicts(_ text: String) -> String {
      text.replacingOccurrences(of: #"wall [0-9.]+ s"#, with: "wall", options: .regularExpression)
    }
    #expect(dot.status == 0)
    #expect(verdicts(dot.stdout) == verdicts(scenarios.stdout))
    #expect(dot.stdout.hasSuffix(" passed, 0 failed\n"))
    #expect(!dot.stdout.contains(".build") && !dot.stdout.contains("Reports/"))
  }
}

/// A JUnit XML file read with Foundation's `XMLParser`: parsing fails on anything malformed.
final class JUnitDocument: NSObject, XMLParserDelegate {
  struct Element {
    var attributes: [String: String]
    var text = ""
  }

  private(set) var suites: [[String: String]] = []
  private(set) var testcases: [[String: String]] = []
  private(set) var failures: [Element] = []
  private(set) var errors: [Element] = []
  private var open: (name: String, element: Element)?

  init(url: URL) throws {
    super.init()
    let parser = try #require(XMLParser(contentsOf: url))
    parser.delegate = self
    if !parser.parse() {
      throw JUnitParseError(line: parser.lineNumber)
    }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    switch name {
    case "testsuite": suites.append(attributes)
    case "testcase": testcases.append(attributes)
    case "failure", "error": open = (name, Element(attributes: attributes))
    default: break
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { open?.element.text += string }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?)
  {
    guard let current = open, current.name == name else { return }
    if name == "failure" { failures.append(current.element) } else { errors.append(current.element) }
    open = nil
  }
}

struct JUnitParseError: Error, CustomStringConvertible {
  var line: Int
  var description: String { "the JUnit XML does not parse (line \(line))" }
}
