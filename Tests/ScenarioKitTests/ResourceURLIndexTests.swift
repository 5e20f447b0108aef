import Foundation
import SimKernel
import Testing

@testable import ScenarioKit

/// A templated URL (a reaction's `{n}`, a delayed-request answer's `{task}`) is checked at
/// loading against the resources it can name, through `ResourceURLIndex`: it must decide what
/// trying every resource decides, and try only the resources with its literal beginning or end.
@Suite struct ResourceURLIndexTests {
  /// What loading decided before the index: every resource tried.
  static func tryingEvery(_ template: String, _ resources: [String], numbered: Set<String>) -> Bool {
    resources.contains { resource in
      resource.hasSameUTF8(template)
        || References.fits(
          Substring(numbered.contains(resource) ? resource.replacingAll("{n}", with: "1") : resource),
          Substring(template))
    }
  }

  @Test("a template names what trying every resource finds, also beyond ASCII and for numbered resources")
  func agreesWithTryingEveryResource() {
    let numbered: Set<String> = ["https://h{n}.example.com/f", "https://cdn.example.com/ep-{n}.mp4"]
    let asciiResources = [
      "https://cdn.example.com/a.bin", "https://cdn.example.com/a-1.bin", "https://cdn.example.com/b/c-22",
      "https://other.example.org/x", "https://h{n}.example.com/f", "https://cdn.example.com/ep-{n}.mp4",
      "http://cdn.example.com/plain",
    ]
    let templates = [
      "https://cdn.example.com/a-{n}.bin", "https://cdn.example.com/{task}",
      "https://cdn.example.com/b/c-{n}",
      "https://cdn.example.com/b/{task}-{n}", "https://h{n}.example.com/f", "https://h{n}.example.com/g",
      "https://cdn.example.com/ep-{n}.mp4", "https://cdn.example.com/ep-{task}.mp4", "{task}", "{task}/x",
      "https://{task}/f", "https://cdn.example.com/z-{n}", "http://cdn.example.com/{task}", "{n}",
      "https://cdn.example.com/a{task}.bin", "https://cdn.example.com/épisode-{n}",
      // The same letters in another Unicode form: other bytes, so no resource.
      "https://cdn.example.com/e\u{301}pisode-{n}", "https://cdn.example.com/e\u{301}pisode-3",
    ]
    for resources in [asciiResources, asciiResources + ["https://cdn.example.com/\u{E9}pisode-3"]] {
      var index = ResourceURLIndex(resources: resources, numbered: Array(numbered))
      for template in templates {
        let found = index.canName(template)
        #expect(
          found == Self.tryingEvery(template, resources, numbered: numbered),
          "\(template) over \(resources.count) resources")
      }
    }
  }

  @Test("a template in another Unicode form than a resource names none")
  func bytesNotLetters() {
    var index = ResourceURLIndex(
      resources: ["https://cdn.example.com/\u{E9}pisode-3", "https://cdn.example.com/caf\u{E9}-{n}"],
      numbered: ["https://cdn.example.com/caf\u{E9}-{n}"])
    let answers = [
      "https://cdn.example.com/\u{E9}pisode-{n}", "https://cdn.example.com/e\u{301}pisode-{n}",
      "https://cdn.example.com/caf\u{E9}-{n}", "https://cdn.example.com/cafe\u{301}-{n}",
    ].map { index.canName($0) }
    #expect(answers == [true, false, true, false])
  }

  @Test("the literal text around a template's placeholders, as matching reads it")
  func literalEnds() {
    #expect(References.literalEnds("https://a/{n}/b-{task}.c") == ("https://a/", ".c"))
    #expect(References.literalEnds("{task}") == ("", ""))
    #expect(References.literalEnds("x{{n}}y") == ("x{", "}y"))
    #expect(References.literalEnds("https://a/b") == ("https://a/b", "https://a/b"))
  }

  @Test("N templates, each naming one of N resources, try about N pairs, not N x N")
  func triesOnlyTheResourcesWithTheTemplatesEnds() {
    let n = 2_000
    let resources = (1...n).map { "https://cdn.example.com/r\($0)/f-1" }
    var index = ResourceURLIndex(resources: resources, numbered: [])
    let named = (1...n).filter { index.canName("https://cdn.example.com/r\($0)/f-{n}") }
    #expect(named.count == n)
    let unknown = index.canName("https://cdn.example.com/r\(n + 1)/f-{n}")
    #expect(!unknown)
    // r1/ also begins r10/, r100/, ...: a few more than one each.
    #expect(index.pairsTried <= 3 * n, "\(index.pairsTried) pairs tried")
    let before = index.pairsTried
    for i in 1...n { _ = index.canName("https://cdn.example.com/r\(i)/f-{n}") }
    #expect(index.pairsTried == before, "a template already decided is not tried again")
  }
}
