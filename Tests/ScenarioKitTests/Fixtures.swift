import Foundation

/// A scenario that uses every section and form of scenario-format.md. It lives in
/// `Tests/Fixtures/full-scenario.json` so every test target reads the same text.
enum Fixtures {
  static let fullScenario: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/full-scenario.json")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
      preconditionFailure("test fixture missing: \(url.path)")
    }
    return text
  }()
}
