import Foundation
import ScenarioKit
import Testing

/// A URL that is not among `server.resources`: the loader refuses it (the README says so and why).
@Suite("Unknown URLs")
struct UnknownURLTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  static let typo = """
    {"name": "typo", "app": {"sessions": [{"identifier": "S"}]},
     "server": {"resources": [{"url": "https://example.com/book.zip", "size": "5MB"}]},
     "timeline": [{"at": "0s", "do": "download", "session": "S", "url": "https://example.com/bok.zip", "name": "book"}]}
    """

  @Test("a typo in a task's URL is refused with the place and the nearest declared URL")
  func refused() throws {
    var message: String?
    do {
      _ = try ScenarioLoader.load(data: Array(Self.typo.utf8), file: "s.json")
    } catch {
      message = error.lines.first
    }
    #expect(
      message
        == "s.json: timeline[0].url: no resource 'https://example.com/bok.zip' in server.resources; "
        + "did you mean 'https://example.com/book.zip'?")
  }

  @Test("the README describes that refusal, not a 404")
  func readmeAgrees() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    #expect(!text.contains("A URL the server does not have answers 404"))
    #expect(text.contains("the loader refuses any other"))
    #expect(text.contains("no resource 'https://example.com/bok.zip' in server.resources; did you mean"))
  }
}
