import Foundation
import Testing

@testable import SafeOutput

@Suite struct TerminalTextTests {
  @Test(arguments: [
    ("plain name", "plain name"),
    ("two\nlines", "two\\nlines"),
    ("\u{1B}[2Jclear", "\\u{1B}[2Jclear"),
    ("tab\there\r", "tab\\there\\r"),
    ("back\\slash", "back\\\\slash"),
    ("bidi\u{202E}txt", "bidi\\u{202E}txt"),
    ("c1\u{9B}31m", "c1\\u{9B}31m"),
    ("café ünïcode 🙂", "café ünïcode 🙂"),
  ])
  func escapes(_ input: String, _ expected: String) {
    #expect(TerminalText.escape(input) == expected)
  }

  @Test func boundedKeepsAPrefixAndSaysHowMuchIsLeftOut() {
    let huge = String(repeating: "k", count: 7_000_000)
    let quoted = TerminalText.bounded(huge, limit: 10)
    #expect(quoted == "kkkkkkkkkk... (6999990 more bytes)")
    #expect(TerminalText.bounded("short\n", limit: 10) == "short\\n")
  }
}

@Suite struct AtomicFileTests {
  private func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func replacesTheFileAndLeavesNoTemporaryFile() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/trace.jsonl"
    try AtomicFile.write("old\n", to: path)
    try AtomicFile.write("new\n", to: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["trace.jsonl"])
  }

  @Test func aDirectoryOrAMissingFolderIsAnErrorInOurOwnWords() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(throws: FileWriteError.self) { try AtomicFile.write("x", to: dir) }
    do {
      try AtomicFile.write("x", to: dir + "/missing/file.txt")
      Issue.record("expected a failure")
    } catch {
      #expect(error.description == "cannot write '\(dir)/missing/file.txt': no such directory")
    }
    do {
      try AtomicFile.write("x", to: dir)
    } catch {
      #expect(error.description == "cannot write '\(dir)': it is a directory; give a file name")
    }
  }

  @Test func createFolderMakesParentsAndRefusesAFileInTheWay() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try AtomicFile.createFolder(dir + "/a/b/c")
    try AtomicFile.createFolder(dir + "/a/b/c")
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: dir + "/a/b/c", isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
    try AtomicFile.write("x", to: dir + "/file")
    #expect(throws: FileWriteError.self) { try AtomicFile.createFolder(dir + "/file/sub") }
  }

  @Test func aFullDeviceFailsCleanly() throws {
    guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
    let text = String(repeating: "x", count: 100_000)
    let fd = open("/dev/full", O_WRONLY)
    #expect(fd >= 0)
    defer { close(fd) }
    #expect(DescriptorWriter.writeAll(fd, text) == ENOSPC)
  }
}
