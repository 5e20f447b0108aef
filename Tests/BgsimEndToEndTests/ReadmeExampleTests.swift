import Foundation
import Testing

/// The README's Swift example: every ```` ```swift ```` block, in order, is one complete program
/// (no `...` elisions) that type-checks against the modules `swift test` just built. CI also
/// builds and runs it in a consumer package (`scripts/check-readme-example.sh`).
@Suite struct ReadmeExampleTests {
  /// Every line inside a ```` ```swift ```` fence of the README, blocks joined in order.
  static func example() throws -> String {
    let readme = try String(
      contentsOf: BgsimSandbox.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    var inside = false
    var lines: [Substring] = []
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.trimmingCharacters(in: .whitespaces) == "```swift" {
        inside = true
      } else if line.hasPrefix("```") {
        if inside { lines.append("") }
        inside = false
      } else if inside {
        lines.append(line)
      }
    }
    return lines.joined(separator: "\n")
  }

  @Test func exampleIsCompleteAndCompiles() throws {
    let source = try Self.example()
    #expect(source.contains("import TransferEngine"))
    for elision in ["{ ... }", "[...]", "(...)", "...)", "... }"] {
      #expect(!source.contains(elision), "the README's Swift example elides code with '\(elision)'")
    }
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("main.swift", source)
    // SwiftPM 6 keeps modules in `Modules/` beside the products; older layouts beside them.
    let products = try BgsimSandbox.executable().deletingLastPathComponent()
    let modules = try #require(
      [products.appendingPathComponent("Modules"), products].first {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("TransferEngine.swiftmodule").path)
      }, "no TransferEngine.swiftmodule under \(products.path)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "main.swift"]
    process.currentDirectoryURL = box.directory
    let errors = box.directory.appendingPathComponent("errors.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    process.waitUntilExit()
    let messages = try String(contentsOf: errors, encoding: .utf8)
    #expect(process.terminationStatus == 0, "the README's Swift example does not compile:\n\(messages)")
  }
}
