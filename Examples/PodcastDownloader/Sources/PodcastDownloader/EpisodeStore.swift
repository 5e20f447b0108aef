import Foundation

/// Where each episode is, as the manager remembers it across launches.
public enum EpisodeState: Codable, Equatable, Sendable {
  case downloading
  /// Interrupted; the resume data is in the container under this file name.
  case paused(resumeDataFile: String)
  /// On disk in Documents/Episodes under this file name.
  case done(file: String)
  case failed(code: Int)
}

/// The manager's state file, `Library/downloads.json` in the app's container.
struct EpisodeStore {
  let file: URL

  init(container: URL) {
    let library = container.appendingPathComponent("Library", isDirectory: true)
    try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    file = library.appendingPathComponent("downloads.json")
  }

  func load() -> [String: EpisodeState] {
    guard let data = try? Data(contentsOf: file),
      let states = try? JSONDecoder().decode([String: EpisodeState].self, from: data)
    else { return [:] }
    return states
  }

  func save(_ states: [String: EpisodeState]) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(states) else { return }
    try? data.write(to: file, options: .atomic)
  }
}
