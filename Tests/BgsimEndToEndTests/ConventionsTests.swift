import Foundation
import Testing

/// The command-line conventions iOS engineers know from swift-argument-parser tools: short
/// flags, `-` for standard output, colour only for terminals, completion scripts.
@Suite("command-line conventions, end to end")
struct ConventionsTests {
  @Test func shortFlags() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    let version = try box.run(["-V"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("bgsim "))
    try box.write("s/a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    let quiet = try box.run(["check", "s", "-q"])
    #expect(quiet.stdout == "1 passed, 0 failed\n")
    let run = try box.run(["run", "s/a.json", "-q"])
    #expect(!run.stdout.contains("network"))
    #expect(run.stdout.contains("1 of 1 expectations hold"))
  }

  @Test func traceToStandardOutput() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    let result = try box.run(["run", "a.json", "--trace-out", "-"])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.hasPrefix(#"{"t": "#) })
    #expect(result.stderr.contains("1 of 1 expectations hold"))
  }

  @Test func colourOnlyWhenWanted() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("s/a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    try box.write("s/b.json", CheckCommandTests.scenario(name: "b", expectBy: "1s"))
    let plain = try box.run(["check", "s"])
    #expect(!plain.stdout.contains("\u{1B}["), "output to a file has no colour")
    let forced = try box.run(["check", "s"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
    #expect(forced.stdout.contains("\u{1B}[32mok\u{1B}[0m    s/a.json"))
    #expect(forced.stdout.contains("\u{1B}[31mFAIL\u{1B}[0m  s/b.json"))
    let noColor = try box.run(["check", "s"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
    #expect(!noColor.stdout.contains("\u{1B}["))
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScripts(_ shell: String) throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    let result = try box.run(["completion", shell])
    #expect(result.status == 0)
    for word in ["run", "check", "validate", "schema", "sweep", "junit", "trace-out", "text json github"] {
      #expect(result.stdout.contains(word), "\(shell) completion lacks \(word)")
    }
    if shell == "bash" {
      try box.write("c.bash", result.stdout)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments = [
        "-c", "source c.bash; COMP_WORDS=(bgsim check --fo); COMP_CWORD=2; _bgsim; echo ${COMPREPLY[@]}",
      ]
      process.currentDirectoryURL = box.directory
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      process.waitUntilExit()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      #expect(process.terminationStatus == 0)
      #expect(output == "--format\n")
    }
    let bad = try box.run(["completion", "powershell"])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("bgsim: expected one shell, bash, zsh or fish; found 'powershell'\n"))
  }

  @Test func fuzzTimeBudgetRunsUntilSpent() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    let result = try box.run(["fuzz", "--time-budget", "2s", "--out", "f"])
    #expect(result.status == 0)
    // "fuzzed N seeds (1-N) in T s ...": T reaches the budget even past the default 1-1000 seeds' pace.
    let seconds = result.stdout.split(separator: " ").firstIndex(of: "in").flatMap {
      Double(result.stdout.split(separator: " ")[$0 + 1])
    }
    #expect((seconds ?? 0) >= 2.0, "\(result.stdout)")
  }

  @Test func reportIntoAFreshFolderAndKeepingEarlierPages() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("one/a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    try box.write("two/b.json", CheckCommandTests.scenario(name: "b", expectBy: "2s"))
    let first = try box.run(["report", "one"])
    #expect(first.status == 0)
    #expect(first.stdout == "bgsim-report/a.html\nbgsim-report/index.html\n")
    #expect(first.stderr.contains("wrote the report into 'bgsim-report'"))
    let second = try box.run(["report", "two"])
    #expect(second.stdout.hasPrefix("bgsim-report-2/b.html\n"))
    _ = try box.run(["report", "two", "--out", "bgsim-report"])
    let index = try String(
      contentsOf: box.directory.appendingPathComponent("bgsim-report/index.html"), encoding: .utf8)
    #expect(index.contains("href=\"a.html\"") && index.contains("href=\"b.html\""))
    let help = try box.run(["report", "--help"])
    #expect(help.stdout.contains("swift run bgsim report Scenarios --out Reports/scenarios"))
    let readme = try String(
      contentsOf: BgsimSandbox.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("swift run bgsim report Scenarios --out Reports/scenarios"))
  }

  /// `--param KEY V` names `KEY=V`; a list knob's error shows the JSON list syntax.
  @Test func paramMessages() throws {
    let box = try BgsimSandbox()
    defer { box.remove() }
    try box.write("a.json", CheckCommandTests.scenario(name: "a", expectBy: "2s"))
    let space = try box.run(["sweep", "a.json", "--param", "rateLimiter.growth", "1.5"])
    #expect(space.status == 2)
    #expect(
      space.stderr.hasPrefix(
        "bgsim: --param expects KEY=V1,V2,... with '=', found 'rateLimiter.growth'; "
          + "write --param rateLimiter.growth=1.5\n"))
    let list = try box.run(["sweep", "a.json", "--param", "discretionary.requires=wifi"])
    #expect(list.status == 2)
    #expect(
      list.stderr.contains(#"write a list as JSON, such as discretionary.requires=["wifi"]"#))
  }
}
