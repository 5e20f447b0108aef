import Foundation
import Testing

@testable import SimKernel

/// Traces are compared as written (byte for byte), mostly without writing them: the fuzzer
/// and `DeterminismCheck` must never call two traces alike that would be written differently.
@Suite("Comparing trace events as written")
struct WrittenAlikeTests {
  static let event = TraceEvent(
    time: SimTime(nanoseconds: 1_500_000_000), kind: "task.finished",
    fields: [
      TraceField("task", "café"), TraceField("bytes", 42), TraceField("battery", .double(0.5)),
      TraceField("expensive", true), TraceField("after", .duration(.seconds(3))),
    ])

  static func changing(_ change: (inout TraceEvent) -> Void) -> TraceEvent {
    var changed = event
    change(&changed)
    return changed
  }

  /// The event as written, as bytes (`==` on text takes canonically equivalent text as equal).
  static func bytes(_ event: TraceEvent) -> [UInt8] { Array(event.jsonLine.utf8) }

  @Test(
    "any difference in what is written makes the events differ",
    arguments: [
      ("time", WrittenAlikeTests.changing { $0.time = SimTime(nanoseconds: 1_500_000_001) }),
      ("kind", WrittenAlikeTests.changing { $0.kind = "task.failed" }),
      ("field name", WrittenAlikeTests.changing { $0.fields[1].key = "byte" }),
      ("field value", WrittenAlikeTests.changing { $0.fields[1].value = 43 }),
      ("fraction", WrittenAlikeTests.changing { $0.fields[2].value = .double(0.25) }),
      ("flag", WrittenAlikeTests.changing { $0.fields[3].value = false }),
      ("duration", WrittenAlikeTests.changing { $0.fields[4].value = .duration(.seconds(4)) }),
      ("one field more", WrittenAlikeTests.changing { $0.fields.append(TraceField("status", 200)) }),
      ("a canonically equivalent name", WrittenAlikeTests.changing { $0.fields[0].value = "cafe\u{301}" }),
    ])
  func differences(what: String, changed: TraceEvent) {
    #expect(Self.bytes(Self.event) != Self.bytes(changed), "\(what)")
    #expect(!Self.event.isWrittenAs(changed), "\(what)")
    #expect(Self.event.isWrittenAs(Self.event))
  }

  @Test("values written alike are alike, whether or not `==` says so")
  func valuesWrittenAlike() {
    let negativeZero = Self.changing { $0.fields[2].value = .double(-0.0) }
    let zero = Self.changing { $0.fields[2].value = .double(0) }
    #expect(Self.bytes(negativeZero) == Self.bytes(zero))
    #expect(negativeZero.isWrittenAs(zero))
    let fraction = Self.changing { $0.fields[1].value = .double(42) }
    #expect(fraction != Self.event)
    #expect(Self.bytes(fraction) == Self.bytes(Self.event))
    #expect(fraction.isWrittenAs(Self.event))
  }

  @Test("the first differing line is found by bytes, not by canonical equivalence")
  func firstDifference() throws {
    let other = Self.changing { $0.fields[0].value = "cafe\u{301}" }
    #expect(other == Self.event)
    let difference = try #require(
      DeterminismCheck.firstDifference([Self.event, Self.event], [Self.event, other]))
    #expect(difference.line == 2)
    let shorter = try #require(DeterminismCheck.firstDifference([Self.event, Self.event], [Self.event]))
    #expect(shorter.line == 2 && shorter.actual == nil)
    #expect(DeterminismCheck.firstDifference([Self.event, Self.event], [Self.event, Self.event]) == nil)
  }

  @Test("text is compared by its bytes, short or long")
  func sameUTF8() {
    let long = String(repeating: "segment/", count: 40)
    #expect(long.hasSameUTF8(String(repeating: "segment/", count: 40)))
    #expect(!long.hasSameUTF8(long + "x"))
    #expect(!long.hasSameUTF8(String(long.dropLast()) + "x"))
    #expect("key".hasSameUTF8("key") && !"key".hasSameUTF8("kez") && "".hasSameUTF8(""))
    #expect(!"é".hasSameUTF8("e\u{301}") && "é" == "e\u{301}")
    #expect(String(long.prefix(9)).hasSameUTF8("segment/s"))
    // Compared eight bytes at a time, then the rest: a difference at any place, for every length
    // around a word's, is found; equal text is equal.
    for length in 0...25 {
      let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      #expect(text.hasSameUTF8(String(text.utf8.map { Character(UnicodeScalar($0)) })))
      for place in 0..<length {
        var bytes = Array(text.utf8)
        bytes[place] = UInt8(ascii: "0")
        #expect(!text.hasSameUTF8(String(decoding: bytes, as: UTF8.self)), "length \(length), byte \(place)")
      }
    }
    // Hashed by bytes: equal text, equal hash (however made); the other form, another key.
    var a = Hasher()
    "caf\u{E9}/x".hashUTF8(into: &a)
    var b = Hasher()
    String(decoding: Array("caf\u{E9}/x".utf8), as: UTF8.self).hashUTF8(into: &b)
    #expect(a.finalize() == b.finalize())
  }

  @Test("a written key files names apart by their bytes, where a String key files them together")
  func writtenKeys() {
    let composed = "\u{E9}t\u{E9}"
    let decomposed = "e\u{301}te\u{301}"
    var byString: [String: Int] = [:]
    var byBytes: [WrittenKey: Int] = [:]
    for (i, name) in [composed, decomposed, "plain", "plain"].enumerated() {
      byString[name, default: 0] += i + 1
      byBytes[WrittenKey(name), default: 0] += i + 1
    }
    #expect(byString.count == 2 && byString[composed] == 3)
    #expect(byBytes.count == 3)
    #expect(byBytes[WrittenKey(composed)] == 1 && byBytes[WrittenKey(decomposed)] == 2)
    #expect(byBytes[WrittenKey("plain")] == 7)
    // A key made from a slice of a longer text is the key of the same bytes.
    let long = String(repeating: "segment/", count: 40)
    #expect(WrittenKey(String(long.prefix(16))) == WrittenKey("segment/segment/"))
    #expect(WrittenKey(String(long.prefix(16))).hashValue == WrittenKey("segment/segment/").hashValue)
  }
}
