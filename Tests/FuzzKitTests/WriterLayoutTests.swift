import Foundation
import SimKernel
import Testing

@testable import FuzzKit

/// The fuzz scenario writer measures whether a node fits on one line instead of writing it: its
/// layout must be the one the simple rule gives (a node goes on one line when its one-line
/// text, after its indent, is at most `lineWidth` characters and holds no line break).
@Suite("Laying out a fuzz scenario's JSON")
struct WriterLayoutTests {
  /// The rule, written the slow and obvious way: write the node on one line and look.
  static func reference(_ node: JSONNode, indent: String) -> String {
    var flat = ""
    ScenarioJSONWriter.renderFlat(node, into: &flat)
    if flat.count + indent.count <= ScenarioJSONWriter.lineWidth && !flat.contains("\n") { return flat }
    let inner = indent + "  "
    switch node {
    case .object(let members) where !members.isEmpty:
      let lines = members.map { inner + JSONText.quoted($0.0) + ": " + reference($0.1, indent: inner) }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
    case .array(let items) where !items.isEmpty:
      return "[\n" + items.map { inner + reference($0, indent: inner) }.joined(separator: ",\n") + "\n"
        + indent
        + "]"
    case .raw(let text):
      return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset == 0 ? String($0.element) : indent + $0.element }.joined(separator: "\n")
    default: return flat
    }
  }

  @Test("generated scenarios are laid out as the rule says", arguments: [UInt64(1), 2, 3, 50, 400, 9_001])
  func generated(seed: UInt64) {
    let node = ScenarioJSONWriter.node(ScenarioGenerator.scenario(seed: seed))
    let written = ScenarioJSONWriter.render(node, indent: "")
    #expect(Array(written.utf8) == Array(Self.reference(node, indent: "").utf8))
    #expect(written.contains("\n"))
  }

  /// Widths at the edge of the line, text that is not ASCII (a character of several scalars
  /// counts once), escapes, raw text with line breaks, empty containers, deep indents.
  @Test("nodes at the edges of the rule", arguments: [0, 2, 40, 99, 100, 130])
  func edges(indentWidth: Int) {
    let indent = String(repeating: " ", count: indentWidth)
    var nodes: [JSONNode] = [
      .object([
        ("n\u{301}", .string("e\u{301}\u{301}" + String(repeating: "x", count: 80))),
        ("q", .string("a\"b\\c\n\u{1}")),
        ("r", .raw("{\n  \"a\": 1\n}")), ("e", .array([])), ("o", .object([])),
        ("z", .array([.null, .bool(false), .bool(true), .number("-1.5")])),
      ]),
      .array([.raw("{\"flat\": true}"), .string("🇫🇷🇫🇷")]),
    ]
    // One-line widths of 99, 100 and 101 characters with no indent, in ASCII and not.
    for width in 99...101 {
      nodes.append(.array([.string(String(repeating: "a", count: width - 4))]))
      nodes.append(.array([.string(String(repeating: "é", count: width - 4))]))
      nodes.append(.object([("k", .string(String(repeating: "b", count: width - 11)))]))
    }
    for node in nodes {
      let written = ScenarioJSONWriter.render(node, indent: indent)
      #expect(Array(written.utf8) == Array(Self.reference(node, indent: indent).utf8))
    }
  }
}
