import SimKernel
import Testing

@testable import TransferEngine

/// `SimURL` parses ASCII text on its bytes and anything else by `Character`; both must give the
/// same answer wherever the byte parser answers.
@Suite struct SimURLParsingTests {
  /// The parts as one comparable value ("scheme|host"), nil for text that is not a URL.
  private func parts(_ answer: (scheme: String, host: String)?) -> String? {
    answer.map { "\($0.scheme)|\($0.host)" }
  }

  @Test func knownShapes() {
    let cases: [(String, String?)] = [
      ("HTTPS://user:pw@Example.COM:443/p?q#f", "https|example.com"),
      ("http://a.example.com", "http|a.example.com"),
      ("https://@@a@@/x", "https|a"),
      ("https://a@b@c?x@y", "https|c"),
      ("ftp+x-y.z://host#frag", "ftp+x-y.z|host"),
      ("https://:80/", nil),
      ("https://@/", nil),
      ("https:///path", nil),
      ("://host", nil),
      ("h t://host", nil),
      ("ht_p://host", nil),
      ("https://a.com/x y", nil),
      ("https://a.com\r\n", nil),
      ("https://a.com\u{0B}", nil),
      ("https:/a.com", nil),
      ("", nil),
    ]
    for (text, expected) in cases {
      #expect(parts(SimURL(text).map { ($0.scheme, $0.host) }) == expected, "\(text.debugDescription)")
      #expect(SimURL.asciiParts(of: text) != nil, "ASCII text is answered on its bytes")
    }
  }

  /// Text with a non-ASCII scalar goes to the `Character` rules, where a combining accent joins
  /// the space before it into a character that is not a space.
  @Test func nonASCIITextFollowsTheCharacterRules() {
    let cases: [(String, String?)] = [
      ("HTTPS://user@ÉXAMPLE.com:8080/x", "https|éxample.com"),
      ("https://a.com/ \u{301}", "https|a.com"),
      ("https://a.com/ é", nil),
      ("https:/\u{301}/a.com", nil),
    ]
    for (text, expected) in cases {
      #expect(SimURL.asciiParts(of: text) == nil)
      #expect(parts(SimURL(text).map { ($0.scheme, $0.host) }) == expected, "\(text.debugDescription)")
    }
  }

  /// Random ASCII text built from the characters the rules care about: the byte parser and the
  /// `Character` parser agree on every one.
  @Test func byteParserAgreesWithCharacterParserOnRandomASCII() {
    let pieces = [
      "a", "B", "z", "0", "9", "+", "-", ".", ":", "/", "?", "#", "@", " ", "\n", "\r", "\r\n", "\t",
      "\u{0B}", "\u{0C}", "%", "_", "~", "://", "http", "HTTPS", "://", "example.COM", ":8080", "@",
    ]
    // Mostly scheme characters, and a space now and then.
    let schemePieces = ["a", "B", "0", "+", "-", ".", "http", "HTTPS", " ", "_"]
    var random = SeededGenerator(seed: 11)
    var urls = 0
    for _ in 0..<20_000 {
      func piecesOf(_ lengths: ClosedRange<Int>, from choice: [String] = pieces) -> String {
        let length = Int.random(in: lengths, using: &random)
        return (0..<length).map { _ in choice.randomElement(using: &random)! }.joined()
      }
      // Half of them shaped like a URL, so that the later rules are reached.
      let text =
        Bool.random(using: &random)
        ? piecesOf(0...12) : piecesOf(0...2, from: schemePieces) + "://" + piecesOf(0...5)
      let fast = SimURL.asciiParts(of: text)
      #expect(fast != nil)
      let byBytes = fast.flatMap { parts($0) }
      #expect(byBytes == parts(SimURL.characterParts(of: text)), "\(text.debugDescription)")
      if byBytes != nil { urls += 1 }
    }
    // The alphabet makes URLs often enough for the agreement to mean something.
    #expect(urls > 1_000)
  }

  /// On a device a path or host in another Unicode normalization form is percent-encoded as other
  /// bytes: another resource. `String`'s `==` and hash would take the two for one.
  @Test func urlsAreEqualByTheirBytes() throws {
    let composed = try #require(SimURL("https://caf\u{E9}.example/\u{E9}"))
    let decomposed = try #require(SimURL("https://cafe\u{301}.example/e\u{301}"))
    #expect(composed.string == decomposed.string)  // what `String` says
    #expect(composed != decomposed)
    #expect(Set([composed, decomposed]).count == 2)
    #expect(composed == SimURL("https://caf\u{E9}.example/\u{E9}"))
    // Ordered by bytes: one order on every run, also for the two.
    #expect(decomposed < composed && !(composed < decomposed))
    // A host fault on one host's form does not match the other's.
    #expect(FaultTarget.host(composed.host).matches(composed))
    #expect(!FaultTarget.host(composed.host).matches(decomposed))
    #expect(Set([FaultTarget.host(composed.host), .host(decomposed.host)]).count == 2)
  }
}
