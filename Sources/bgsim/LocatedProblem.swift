import Foundation
import SafeOutput
import ScenarioKit
import SimKernel

/// One problem to show a person, an editor or a CI system: where it is (file, line and column
/// when known, JSON path), a one-line message, and indented details under it.
struct LocatedProblem {
  var file: String
  var line: Int?
  var column: Int?
  /// `timeline[3].at`; empty when the problem is about the whole file.
  var path: String
  var message: String
  /// Lines shown under the message in text form (what happened instead, nearby trace lines).
  var details: [String] = []

  init(file: String, line: Int?, column: Int?, path: String, message: String, details: [String] = []) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
    self.details = details
  }

  /// A loader problem; a JSON syntax error's message loses its `at line L, column C` tail,
  /// since the location now carries it.
  init(_ problem: ScenarioProblem) {
    var message = problem.message
    if let position = problem.position, message.hasSuffix(" at \(position)") {
      message.removeLast(" at \(position)".count)
    }
    if let position = problem.position, let range = message.range(of: " at \(position);") {
      message.replaceSubrange(range, with: ";")
    }
    self.init(
      file: problem.file, line: problem.position?.line, column: problem.position?.column, path: problem.path,
      message: message)
  }

  /// `FILE:LINE:COL: error: json.path: message`, the form Xcode, editors and compilers use.
  var text: String {
    var place = file
    if let line {
      place += ":\(line)"
      if let column { place += ":\(column)" }
    }
    // Escaped (`TerminalText`): text from the file can never start a new line of output.
    return TerminalText.escape("\(place): error: " + (path.isEmpty ? message : "\(path): \(message)"))
  }

  /// A GitHub Actions workflow command, which the run's page shows as an annotation on the file.
  var githubAnnotation: String {
    var properties = ["file=\(Self.escapeProperty(file))"]
    if let line { properties.append("line=\(line)") }
    if let column { properties.append("col=\(column)") }
    var body = path.isEmpty ? message : "\(path): \(message)"
    if !details.isEmpty { body += "\n" + details.joined(separator: "\n") }
    return "::error \(properties.joined(separator: ","))::\(Self.escapeData(body))"
  }

  /// The problem as a JSON object (`line` and `column` are null when unknown).
  var json: String {
    let line = self.line.map(String.init) ?? "null"
    let column = self.column.map(String.init) ?? "null"
    return "{\"file\": \(JSONText.quoted(file)), \"line\": \(line), \"column\": \(column), "
      + "\"path\": \(JSONText.quoted(path)), \"message\": \(JSONText.quoted(message)), "
      + "\"details\": [\(details.map(JSONText.quoted).joined(separator: ", "))]}"
  }

  /// Workflow command escaping of a message (GitHub's `escapeData`).
  static func escapeData(_ s: String) -> String {
    s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// Workflow command escaping of a property value (GitHub's `escapeProperty`).
  static func escapeProperty(_ s: String) -> String {
    escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}

/// Finds where a JSON path (`expect[2]`, `timeline[0].url`) was written in a scenario file, so
/// problems found after loading (failed expectations, unplayable entries) can be located too.
struct JSONLocator {
  let root: JSONValue?

  init(file: String) {
    guard let data = FileManager.default.contents(atPath: file), data.count <= ScenarioLoader.maxFileSize
    else {
      root = nil
      return
    }
    root = try? JSONParser.parse(Array(data))
  }

  /// The position of the value at `path`; the deepest existing ancestor's when part of the
  /// path is missing; nil when the file cannot be read.
  func position(of path: String) -> JSONPosition? {
    guard var value = root else { return nil }
    for step in Self.steps(path) {
      let next: JSONValue?
      switch step {
      case .key(let key): next = value[key]
      case .index(let index): next = value.array.flatMap { index < $0.count ? $0[index] : nil }
      }
      guard let next else { break }
      value = next
    }
    return value.position
  }

  enum Step {
    case key(String)
    case index(Int)
  }

  /// `timeline[3].at` -> key timeline, index 3, key at.
  static func steps(_ path: String) -> [Step] {
    var steps: [Step] = []
    for part in path.split(separator: ".") {
      var rest = Substring(part)
      if let bracket = rest.firstIndex(of: "[") {
        let key = rest[..<bracket]
        if !key.isEmpty { steps.append(.key(String(key))) }
        rest = rest[bracket...]
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
          if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) { steps.append(.index(index)) }
          rest = rest[rest.index(after: close)...]
        }
      } else {
        steps.append(.key(String(rest)))
      }
    }
    return steps
  }
}
