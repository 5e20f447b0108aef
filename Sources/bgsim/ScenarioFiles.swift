import Foundation
import SafeOutput
import ScenarioKit

/// Finding scenario files on disk, for `check`, `validate` and `report`.
///
/// A path named on the command line is always taken. Below a directory, every `*.json` file
/// is taken (sorted by path) except in folders that never hold the user's scenarios: hidden
/// ones (`.build`, `.git`, `.swiftpm`), build and dependency folders, Xcode bundles, test
/// fixtures (`Tests`) and bgsim's own output folders (`Reports`, `fuzz-failures`). A JSON file
/// that is clearly something else (not an object, or an object without any scenario key) is
/// skipped with a note on standard error.
enum ScenarioFiles {
  /// Folder names never searched below a directory argument.
  static let skippedFolders: Set<String> = [
    "Tests", "Reports", "fuzz-failures", "DerivedData", "Pods", "Carthage", "node_modules",
  ]
  /// Folder name endings never searched (Xcode bundles, whose JSON is asset catalogs and settings).
  static let skippedFolderSuffixes = [".xcassets", ".xcodeproj", ".xcworkspace", ".xcdatamodeld", ".bundle"]

  /// The scenario files under each of `paths`, in order, each once. A missing path, or a path
  /// with no scenario under it, is a usage error (exit 2): a mistyped path in CI must not pass.
  ///
  /// A file reached twice (`check Scenarios Scenarios/x.json`, `report x.json ./x.json`, a link
  /// to it) is taken where it comes first, with a note: `report` made a second page of it
  /// (`x-2.html`) and `check` ran and counted it twice. Files are the same by device and inode.
  static func find(under paths: [String], command: Command) throws(CommandLineError) -> [String] {
    var files: [String] = []
    var taken: [FileIdentity: String] = [:]
    for path in paths {
      guard let found = find(under: path) else {
        throw .usage("no file or directory '\(path)'", command: command.name)
      }
      for note in found.notes { Console.error("bgsim: note: \(note)") }
      if found.files.isEmpty {
        throw .usage(
          "no scenarios under '\(path)' (no *.json scenario files outside hidden, build, Tests and output folders)",
          command: command.name)
      }
      for file in found.files {
        if let identity = FileIdentity.ofRegularFile(file) {
          if let first = taken[identity] {
            let why = first == file ? "named twice" : "the same file as '\(TerminalText.escape(first))'"
            Console.error("bgsim: note: skipped '\(TerminalText.escape(file))': \(why), taken once")
            continue
          }
          taken[identity] = file
        }
        files.append(file)
      }
    }
    return files
  }

  /// `path` itself if it is a file; the scenario files below it (sorted) if a directory, with
  /// a note for each JSON file skipped as not a scenario; nil if absent.
  static func find(under path: String) -> (files: [String], notes: [String])? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
    guard isDirectory.boolValue else { return ([path], []) }
    var base = path
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var candidates: [String] = []
    walk(directory: base, relative: "", into: &candidates)
    var files: [String] = []
    var notes: [String] = []
    for relative in candidates.sorted() {
      let file = base == "." ? relative : base == "/" ? "/" + relative : "\(base)/\(relative)"
      if let reason = notScenarioReason(file) {
        notes.append("skipped '\(file)': \(reason)")
      } else {
        files.append(file)
      }
    }
    return (files, notes)
  }

  /// Collects `*.json` files below `directory`, as paths relative to the walk's root.
  private static func walk(directory: String, relative: String, into files: inout [String]) {
    let here = relative.isEmpty ? directory : "\(directory)/\(relative)"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
    for name in entries.sorted() {
      let child = relative.isEmpty ? name : "\(relative)/\(name)"
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: "\(here)/\(name)", isDirectory: &isDirectory) else {
        continue
      }
      if isDirectory.boolValue {
        // Symbolic links to folders are not followed, as `find` does not: a link loop must not hang.
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(here)/\(name)")) != nil
        if isLink || name.hasPrefix(".") || skippedFolders.contains(name)
          || skippedFolderSuffixes.contains(where: { name.hasSuffix($0) })
        {
          continue
        }
        walk(directory: directory, relative: child, into: &files)
      } else if name.hasSuffix(".json") && !name.hasPrefix(".") {
        files.append(child)
      }
    }
  }

  /// Why a JSON file found in a walk is not a scenario, or nil if it may be one. A file that
  /// is not even JSON counts as a (broken) scenario, so its syntax error is reported.
  ///
  /// A file larger than any scenario may be is not read whole: its top-level keys are read in
  /// chunks (`TopLevelKeys`), so a large JSON file of another kind is skipped like a small one,
  /// and one that looks like a scenario is left to the loader, which says it is too large.
  static func notScenarioReason(_ file: String) -> String? {
    let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
    if size > Int64(ScenarioLoader.maxFileSize) {
      switch TopLevelKeys.read(file, stoppingAt: scenarioKeys) {
      case .object(let keys, let schema): return notScenarioReason(keys: keys, schema: schema)
      case .notAnObject: return notAnObject
      case .unknown: return nil
      }
    }
    guard let data = FileManager.default.contents(atPath: file), data.count <= ScenarioLoader.maxFileSize,
      let value = try? JSONParser.parse(Array(data))
    else { return nil }
    guard let members = value.members else { return notAnObject }
    return notScenarioReason(keys: Set(members.map(\.key)), schema: value["$schema"]?.string)
  }

  static let notAnObject = "not a scenario (the JSON is not an object)"
  /// What a JSON Schema's `$schema` names.
  static let jsonSchemaHost = "json-schema.org"
  /// The top-level keys that mark a scenario: `$schema` and `description` are too common in
  /// other JSON files.
  static let scenarioKeys = Set(ScenarioLoader.topLevelKeys).subtracting(["$schema", "description"])

  /// Why an object with these top-level `keys` (and this `$schema`) is not a scenario, or nil.
  static func notScenarioReason(keys: Set<String>, schema: String?) -> String? {
    if let schema, schema.contains(jsonSchemaHost) { return "not a scenario (a JSON Schema)" }
    if !keys.isDisjoint(with: scenarioKeys) { return nil }
    return "not a scenario (no key of a scenario's top level, such as \"name\" or \"timeline\")"
  }
}
