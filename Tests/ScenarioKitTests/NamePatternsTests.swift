import Foundation
import Testing

@testable import ScenarioKit

/// The loader's index of created name patterns answers as trying every pattern would.
@Suite struct NamePatternsTests {
  static let patterns = [
    "t{n}", "r5-{n}", "r50-{n}", "{n}-late", "ep-{task}-copy", "{task}", "épisode-{n}", "a{n}b{n}", "t{n}",
  ]
  static let references = [
    "t1", "t", "t12x", "r5-3", "r50-3", "r5-", "r500-3", "7-late", "-late", "ep-x-copy", "ep--copy",
    "anything",
    "épisode-4", "episode-4", "a1b2", "a1b", "t{n}", "r{n}", "", "r5-{n}",
  ]

  @Test("each reference fits exactly when some pattern, tried one by one, says it does")
  func agreesWithTryingEveryPattern() {
    for patterns in [Self.patterns, Array(Self.patterns.prefix(3)), ["{task}"], []] {
      let index = NamePatterns(patterns)
      for reference in Self.references {
        let expected = patterns.contains { References.name(reference, matches: $0) }
        #expect(index.match(reference) == expected, "\(reference) against \(patterns)")
      }
    }
  }

  @Test(
    "a name of 50,000 characters is answered as trying every pattern would (looking up only the filed lengths)"
  )
  func longReference() {
    let long = String(repeating: "y", count: 50_000)
    let patterns = ["x{n}", "yy{task}", "{n}-late", String(repeating: "y", count: 300) + "{n}"]
    let index = NamePatterns(patterns)
    for reference in [long, "x" + long, long + "-late", String(repeating: "y", count: 300) + "42", "y"] {
      let expected = patterns.contains { References.name(reference, matches: $0) }
      #expect(index.match(reference) == expected, "a name of \(reference.count) characters")
    }
  }

  /// The run compares names by their bytes (a decomposed "é" names another task), so the
  /// loader's check that a reference names a created task must too: else a file loads and its
  /// `cancel` stops the run, or a `{n}` name in one form passes for one in the other.
  @Test("a name fits a pattern by its bytes: the same letters in another Unicode form do not fit")
  func bytesNotLetters() {
    let composed = "\u{E9}pisode-"
    let decomposed = "e\u{301}pisode-"
    #expect(composed == decomposed)  // equal to String, which is why the loader must not ask it
    let index = NamePatterns([composed + "{n}", "x-{task}-" + composed])
    #expect(index.match(composed + "4"))
    #expect(!index.match(decomposed + "4"))
    #expect(index.match("x-anything-" + composed))
    #expect(!index.match("x-anything-" + decomposed))
    #expect(!References.name(decomposed + "4", matches: composed + "4"))
    #expect(!References.fits(Substring(decomposed + "4"), Substring(composed + "{n}")))
    // A combining accent after a placeholder's brace does not hide the placeholder.
    #expect(References.literalEnds("a{n}\u{301}") == ("a", "\u{301}"))
  }

  /// A near miss shows both forms with their non-ASCII scalars written out, and a name of
  /// megabytes only as far as a message needs.
  @Test("the two forms of a near miss are written out, a long name cut with its byte count")
  func normalizationNote() {
    #expect(NormalizationTwins.escaped("cafe\u{301}") == "cafe<U+0301>")
    #expect(NormalizationTwins.escaped("\u{1F600}x") == "<U+1F600>x")
    let long = String(repeating: "\u{E9}", count: 100_000)
    #expect(
      NormalizationTwins.escaped(long)
        == String(repeating: "<U+00E9>", count: 80) + "... (\(200_000 - 160) more bytes)")
    let twins = NormalizationTwins(["caf\u{E9}", "other"])
    #expect(twins.note(for: "caf\u{E9}") == nil)  // the same bytes: no near miss
    #expect(twins.note(for: "unknown") == nil)
    #expect(
      twins.note(for: "cafe\u{301}")?.contains("written here as 'cafe<U+0301>', there as 'caf<U+00E9>'")
        == true)
  }

  @Test("a pattern is filed under the text before its first placeholder")
  func prefixes() {
    #expect(NamePatterns.literalPrefix("r5-{n}") == Array("r5-".utf8))
    #expect(NamePatterns.literalPrefix("{n}-late") == Array("".utf8))
    #expect(NamePatterns.literalPrefix("ep-{task}-{n}") == Array("ep-".utf8))
    #expect(NamePatterns.literalPrefix("plain") == Array("plain".utf8))
  }
}
