/// A scenario's resource URLs, asked whether a templated URL (a reaction's `{n}`, a
/// delayed-request answer's `{task}`) can name one (checked by `References`) without trying
/// every resource: a template tries only the resources that begin with its literal beginning or
/// end with its literal end (`NameRanges`), and each template is decided once. N reactions, each
/// with a templated URL naming one of N resources, tried every pair: 2,000 took 54 s to load.
struct ResourceURLIndex {
  /// Each resource's URL as written (a numbered one's template included).
  private let written: Set<String>
  /// Each resource's URL, a numbered one as its first copy (`{n}` = 1).
  private let instances: [String]
  private let ranges: NameRanges
  /// Whether every resource's URL is ASCII: only then do equal characters mean equal bytes, which
  /// the byte-sorted runs need (`References.fits` compares characters).
  private let allASCII: Bool
  private var decided: [String: Bool] = [:]
  /// How many (template, resource) pairs were matched, for the tests that keep this linear.
  private(set) var pairsTried = 0

  init(resources: [String], numbered: Set<String>) {
    written = Set(resources)
    instances = resources.map { numbered.contains($0) ? $0.replacingAll("{n}", with: "1") : $0 }
    ranges = NameRanges(instances)
    allASCII = instances.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
  }

  /// Whether some filling-in of `template`'s `{n}` (digits) and `{task}` (any text) is one of
  /// the resources: a literal URL, or a numbered one's template (the same template, or its first
  /// copy).
  mutating func canName(_ template: String) -> Bool {
    if let known = decided[template] { return known }
    var answer = written.contains(template)
    if !answer {
      for resource in candidates(for: template) {
        pairsTried += 1
        if References.fits(Substring(resource), Substring(template)) {
          answer = true
          break
        }
      }
    }
    decided[template] = answer
    return answer
  }

  /// The resources `template` may fit: those with its literal beginning or end, or every one.
  private func candidates(for template: String) -> [String] {
    guard allASCII, template.utf8.allSatisfy({ $0 < 0x80 }) else { return instances }
    let (prefix, suffix) = References.literalEnds(template)
    return ranges.candidates(prefix: Array(prefix.utf8), suffix: Array(suffix.utf8)) ?? instances
  }
}
