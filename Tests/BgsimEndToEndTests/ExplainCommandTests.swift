import Foundation
import Testing

/// `bgsim explain FILE TASK`, and the task accounts `bgsim run` ends with.
@Suite struct ExplainCommandTests {
  static let scenario = CheckCommandTests.scenario(name: "one", expectBy: "2s")

  @Test("run ends with the task accounts, after the verdict; --quiet leaves them out")
  func runEndsWithAccounts() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("one.json", Self.scenario)
    let result = try box.run(["run", "one.json"])
    #expect(result.status == 0)
    let tail = result.stdout.components(separatedBy: "1 of 1 expectations hold").last ?? ""
    #expect(
      tail.contains(
        "\nWhy each task took as long as it did (slowest first; bgsim explain FILE TASK for one):\n"))
    #expect(
      tail.contains("\n  a     finished  1.06s  0s       0s       1.06s  1.06s      transferring 1.06s\n"))
    let quiet = try box.run(["run", "--quiet", "one.json"])
    #expect(!quiet.stdout.contains("Why each task"))
  }

  @Test("explain prints one task's account with the trace line behind each interval")
  func explain() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("one.json", Self.scenario)
    let result = try box.run(["explain", "one.json", "a"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("one (seed 0)\n\nTask a (session S): finished, took 1.06s\n"))
    #expect(
      result.stdout.contains(
        "  0s to 1.06s (1.06s)  transferring\n      0s  task   started a session=S taskIdentifier=1\n"))
    #expect(
      result.stdout.hasSuffix(
        "  1.06s  end of the account\n      1.06s  delegate  didComplete a error=none status=200\n"))
  }

  /// A name typed in another Unicode form than the file's (a decomposed "é") is another task, as
  /// the run tells names apart; the message shows the two forms, which look alike on a terminal.
  @Test("explain finds a task by its name's bytes and shows both forms of a near miss")
  func namesByBytes() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write(
      "forms.json",
      """
      {"name": "forms", "seed": 1, "duration": "1h",
       "server": {"resources": [{"url": "https://example.com/a", "size": "1KB"}]},
       "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"},
                    {"at": "1s", "do": "download", "session": "S", "url": "https://example.com/a", "name": "caf\u{E9}"}]}
      """)
    let found = try box.run(["explain", "forms.json", "caf\u{E9}"])
    #expect(found.status == 0)
    let missed = try box.run(["explain", "forms.json", "cafe\u{301}"])
    #expect(missed.status == 2)
    #expect(
      missed.stderr.contains(
        "written here as 'cafe<U+0301>', there as 'caf<U+00E9>' (two Unicode normalization forms)"))
  }

  @Test("explain of a task the run never created: exit 2 with the closest name")
  func unknownTask() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("one.json", Self.scenario)
    let result = try box.run(["explain", "one.json", "A"])
    #expect(result.status == 2)
    #expect(
      result.stderr.hasPrefix("bgsim: one.json: the run created no task named 'A'; did you mean 'a'?\n"))
    // Five photos: photo-6 is nearest photo-5, not the first of the equally-spelled names.
    let downloads = (1...5).map {
      "{\"at\": \"1s\", \"do\": \"download\", \"session\": \"S\", \"url\": \"https://example.com/a\", \"name\": \"photo-\($0)\"}"
    }
    try box.write(
      "photos.json",
      """
      {"name": "photos", "seed": 1, "duration": "1h",
       "server": {"resources": [{"url": "https://example.com/a", "size": "1KB"}]},
       "app": {"sessions": [{"identifier": "S"}]},
       "timeline": [{"at": "0s", "do": "launch"}, \(downloads.joined(separator: ", "))]}
      """)
    let photo = try box.run(["explain", "photos.json", "photo-6"])
    #expect(photo.status == 2)
    #expect(photo.stderr.contains("no task named 'photo-6'; did you mean 'photo-5'?\n"), "\(photo.stderr)")
    let missing = try box.run(["explain", "one.json"])
    #expect(missing.status == 2)
    #expect(missing.stderr.hasPrefix("bgsim: expected a scenario FILE and a TASK name\n"))
  }
}
