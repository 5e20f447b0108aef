import SimKernel

/// A scenario's resource URLs, asked whether a templated URL (a reaction's `{n}`, a
/// delayed-request answer's `{task}`) can name one (checked by `References`) without trying
/// every resource: a template tries only the resources that begin with its literal beginning or
/// end with its literal end (`NameRanges`), and each template is decided once. N reactions, each
/// with a templated URL naming one of N resources, tried every pair: 2,000 took 54 s to load.
struct ResourceURLIndex {
  /// Each resource's URL as written (a numbered one's template included), by its bytes.
  private let written: Set<WrittenKey>
  /// Each resource's URL, a numbered one as its first copy (`{n}` = 1).
  private let instances: [String]
  private let ranges: NameRanges
  private var decided: [WrittenKey: Bool] = [:]
  /// How many (template, resource) pairs were matched, for the tests that keep this linear.
  private(set) var pairsTried = 0

  init(resources: [String], numbered: [String]) {
    written = Set(resources.map(WrittenKey.init))
    let numbered = Set(numbered.map(WrittenKey.init))
    instances = resources.map { numbered.contains(WrittenKey($0)) ? $0.replacingAll("{n}", with: "1") : $0 }
    ranges = NameRanges(instances)
  }

  /// Whether some filling-in of `template`'s `{n}` (digits) and `{task}` (any text) is one of
  /// the resources: a literal URL, or a numbered one's template (the same template, or its first
  /// copy).
  mutating func canName(_ template: String) -> Bool {
    let key = WrittenKey(template)
    if let known = decided[key] { return known }
    var answer = written.contains(key)
    if !answer {
      for resource in candidates(for: template) {
        pairsTried += 1
        if References.fits(Substring(resource), Substring(template)) {
          answer = true
          break
        }
      }
    }
    decided[key] = answer
    return answer
  }

  /// The resources `template` may fit: those with its literal beginning or end (as bytes, as
  /// `References.fits` compares), or every one.
  private func candidates(for template: String) -> [String] {
    let (prefix, suffix) = References.literalEnds(template)
    return ranges.candidates(prefix: Array(prefix.utf8), suffix: Array(suffix.utf8)) ?? instances
  }
}
