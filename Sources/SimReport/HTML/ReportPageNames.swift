/// The file names of report pages: one page per scenario file within an output folder.
///
/// A page is named after its scenario (`HTMLText.fileSafe`, so `relaunch.html`) when that name
/// is free; a name already used by another file's page, by this run, by `index.html`, or by any
/// other file in the folder is skipped for `-2`, `-3`, ... So reporting `a/` and then `b/`,
/// both holding a scenario named `x`, gives `x.html` and `x-2.html`, and reporting `a/` again
/// replaces `x.html` only. Names compare without case (macOS folders ignore it).
enum ReportPageNames {
  /// Page names for `sources` in order, given the folder's manifest (`earlier`) and the names
  /// of the files in it (`present`).
  static func assign(
    _ sources: [(file: String, name: String)], earlier: [ReportIndex.Entry], present: [String]
  ) -> [String] {
    var owner: [String: String] = [:]
    for entry in earlier { owner[entry.link.lowercased()] = source(entry.file) }
    var taken = Set(present.map { $0.lowercased() })
    taken.insert("index.html")
    var used: Set<String> = []
    return sources.map { item in
      let file = source(item.file)
      let base = HTMLText.fileSafe(item.name)
      var candidate = base + ".html"
      var n = 2
      while true {
        let key = candidate.lowercased()
        let free = !taken.contains(key) || owner[key] == file
        if free && !used.contains(key) && key != "index.html" { break }
        candidate = "\(base)-\(n).html"
        n += 1
      }
      used.insert(candidate.lowercased())
      return candidate
    }
  }

  /// The scenario file as compared for page ownership: as named on the command line, without
  /// `./` prefixes or doubled slashes, so `Scenarios/x.json` and `./Scenarios//x.json` match.
  static func source(_ file: String) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    while parts.first == "." { parts.removeFirst() }
    parts.removeAll { $0 == "." }
    return (file.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }
}
