import Foundation
import Testing

@testable import ScenarioKit

/// Placeholders and wildcards are found on UTF-8 bytes, without Foundation's search.
@Suite("Finding placeholders and wildcards in names")
struct TextSearchTests {
  @Test(
    "a placeholder is found wherever it is, and only whole",
    arguments: [
      ("ep-{n}", true, false), ("{n}", true, false), ("{n}{task}", true, true), ("a{task}b", false, true),
      ("ep-{n", false, false), ("ep-n}", false, false), ("{{n}}", true, false), ("{ta{task}", false, true),
      ("{tas}", false, false), ("", false, false), ("é-{n}-ü", true, false), ("{N}", false, false),
    ])
  func placeholders(text: String, number: Bool, task: Bool) {
    #expect(text.hasNumberPlaceholder == number, "\(text)")
    #expect(text.hasTaskPlaceholder == task, "\(text)")
    #expect(text.hasPlaceholder == (number || task), "\(text)")
    #expect(Substring(text).hasNumberPlaceholder == number, "\(text) as a substring")
  }

  @Test("a single character is found as Foundation's search finds it")
  func singleCharacters() {
    for text in ["f*", "*", "a=b", "x.y", "{", "plain", "", "日本*"] {
      for literal in ["*", "=", ".", "{"] {
        let expected = text.contains(literal)
        let found =
          switch literal {
          case "*": text.containsBytes(of: "*")
          case "=": text.containsBytes(of: "=")
          case ".": text.containsBytes(of: ".")
          default: text.containsBytes(of: "{")
          }
        #expect(found == expected, "\(literal) in \(text)")
      }
    }
    let long = String(repeating: "segment-", count: 50)
    #expect(!long.hasPlaceholder && (long + "{n}").hasNumberPlaceholder)
    #expect(long.dropFirst(3).containsBytes(of: "nt-s"))
  }
}
