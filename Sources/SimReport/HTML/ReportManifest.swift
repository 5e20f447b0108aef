import Foundation
import ScenarioKit
import SimKernel

/// `index.jsonl` in a report folder: one line per page the folder holds, so a later report into
/// the same folder keeps every earlier page in its `index.html`.
enum ReportManifest {
  static let fileName = "index.jsonl"

  static func line(_ e: ReportIndex.Entry) -> String {
    "{\"link\": \(JSONText.quoted(e.link)), \"name\": \(JSONText.quoted(e.name)), "
      + "\"description\": \(JSONText.quoted(e.description)), \"passed\": \(e.passed), "
      + "\"simulatedNanoseconds\": \(e.simulatedTime.nanoseconds), \"file\": \(JSONText.quoted(e.file))}"
  }

  /// The entries of an existing manifest whose page still exists; unreadable lines are skipped
  /// (the manifest is rewritten from what is known).
  static func read(directory: String) -> [ReportIndex.Entry] {
    let path = (directory as NSString).appendingPathComponent(fileName)
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    var entries: [ReportIndex.Entry] = []
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let value = try? JSONParser.parse(Array(line)), let link = value["link"]?.string,
        let name = value["name"]?.string, let description = value["description"]?.string,
        let passed = value["passed"]?.bool, let nanoseconds = value["simulatedNanoseconds"]?.number?.int64,
        let file = value["file"]?.string, !link.contains("/"), link.hasSuffix(".html"),
        FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(link))
      else { continue }
      entries.append(
        ReportIndex.Entry(
          name: name, description: description, passed: passed,
          simulatedTime: SimTime(nanoseconds: nanoseconds),
          link: link, file: file))
    }
    return entries
  }
}
