import Foundation
import ScenarioKit
import Testing
import TransferEngine

/// The command line itself: help, version, usage errors, `policy`, `bench`, valid files.
@Suite struct CommandLineTests {
  private func run(_ arguments: String...) throws -> BgsimResult {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    return try sandbox.run(arguments)
  }

  @Test func fullScenarioValidates() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    try sandbox.write("Scenarios/full.json", EndToEndFixtures.fullScenario)
    let result = try sandbox.run(["validate", "Scenarios/full.json"])
    #expect(result.stdout == "Scenarios/full.json: ok\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test func policyDefaultsParseBackToTheDefaults() throws {
    let result = try run("policy", "--defaults")
    #expect(result.status == 0)
    #expect(try ScenarioLoader.loadPolicy(data: Array(result.stdout.utf8), file: "stdout") == Policy.defaults)
    #expect(result.stdout == PolicyJSON.render(.defaults) + "\n")
  }

  @Test func versionAndHelp() throws {
    #expect(try run("--version").stdout == "bgsim 0.1.0 (scenario format version 1)\n")
    let help = try run("--help")
    #expect(help.status == 0 && help.stdout.hasPrefix("usage: bgsim <command> [options]\n"))
    for command in ["run", "validate", "policy", "bench"] {
      let result = try run(command, "-h")
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("usage: bgsim \(command)"))
      #expect(try run("help", command).stdout == result.stdout)
    }
  }

  @Test(arguments: [
    (
      ["rn", "x.json"],
      "bgsim: unknown command 'rn'; did you mean 'run'?\nusage: bgsim <command> [options]\nSee 'bgsim --help'.\n"
    ),
    (
      ["--verbose"],
      "bgsim: unknown option '--verbose'\nusage: bgsim <command> [options]\nSee 'bgsim --help'.\n"
    ),
    (
      ["run", "x.json", "--sed", "3"],
      "bgsim: unknown option '--sed' for 'bgsim run'; did you mean '--seed'?\n"
        + "usage: bgsim run FILE [--trace-out F] [--seed N] [--quiet]\nSee 'bgsim run --help'.\n"
    ),
    (
      ["run"],
      "bgsim: missing the scenario FILE\nusage: bgsim run FILE [--trace-out F] [--seed N] [--quiet]\n"
        + "See 'bgsim run --help'.\n"
    ),
    (
      ["run", "x.json", "--seed", "-1"],
      "bgsim: --seed expects an integer from 0 to 18446744073709551615, found '-1'\n"
        + "usage: bgsim run FILE [--trace-out F] [--seed N] [--quiet]\nSee 'bgsim run --help'.\n"
    ),
    (
      ["run", "x.json", "--trace-out"],
      "bgsim: option '--trace-out' needs a value\nusage: bgsim run FILE [--trace-out F] [--seed N] [--quiet]\n"
        + "See 'bgsim run --help'.\n"
    ),
    (
      ["run", "a.json", "b.json"],
      "bgsim: expected one scenario FILE, found 2\nusage: bgsim run FILE [--trace-out F] [--seed N] [--quiet]\n"
        + "See 'bgsim run --help'.\n"
    ),
    (
      ["run", "missing.json"], "missing.json: error: no such file\n" + InvalidScenarioTests.formatHint + "\n"
    ),
    (
      ["run", ""],
      "'': error: an empty path names no file; give the scenario file's path\n"
        + InvalidScenarioTests.formatHint
        + "\n"
    ),
    (
      ["validate"],
      "bgsim: missing the scenario FILE to validate\nusage: bgsim validate PATH... [--format text|json|github]\nSee 'bgsim validate --help'.\n"
    ),
    (
      ["policy"],
      "bgsim: missing --defaults (the only form of 'policy' in this version)\nusage: bgsim policy --defaults\n"
        + "See 'bgsim policy --help'.\n"
    ),
    (
      ["bench", "sweep", "64"],
      "bgsim: unexpected argument '64'\nusage: bgsim bench [WORKLOAD] [--json]\nSee 'bgsim bench --help'.\n"
    ),
    (
      ["bench", "share", "zero"],
      "bgsim: share takes one transfer count N from 1 to 1000000, found 'zero'\n"
        + "usage: bgsim bench [WORKLOAD] [--json]\nSee 'bgsim bench --help'.\n"
    ),
    (
      ["bench", "scripted", "0"],
      "bgsim: scripted takes one task count N from 1 to 100000, found '0'\n"
        + "usage: bgsim bench [WORKLOAD] [--json]\nSee 'bgsim bench --help'.\n"
    ),
    // An empty path (an unset shell variable) is refused for every option that takes one: joined
    // with a file name, an empty folder was the file system's root.
    (
      ["sweep", "x.json", "--param", "rateLimiter.growth=2", "--out", ""],
      "bgsim: --out needs a folder name\n"
        + "usage: bgsim sweep FILE --param KEY=V1,V2,... [--param ...] [--seeds A-B] [--jobs N] [--shard K/N] "
        + "[--out DIR] [--chart M,...]\nSee 'bgsim sweep --help'.\n"
    ),
    (
      ["report", "x.json", "--out="],
      "bgsim: --out needs a folder name\nusage: bgsim report PATH... [--out DIR]\nSee 'bgsim report --help'.\n"
    ),
    (
      ["calibrate", "w.json", "--observed", ""],
      "bgsim: --observed needs a file name\n"
        + "usage: bgsim calibrate [WORLD.json] --observed LOG.jsonl --param KEY=LO..HI [--param ...] [--seeds A-B] "
        + "[--jobs N] [--tolerance D] [--out DIR]\nSee 'bgsim calibrate --help'.\n"
    ),
    (
      ["sweep-merge", "a", ""],
      "bgsim: an empty path names no directory; give each shard's --out directory\n"
        + "usage: bgsim sweep-merge DIR... [--out DIR]\nSee 'bgsim sweep-merge --help'.\n"
    ),
    (
      ["explore-merge", ""],
      "bgsim: an empty path names no folder; give each shard's --out folder\n"
        + "usage: bgsim explore-merge DIR... [--out DIR]\nSee 'bgsim explore-merge --help'.\n"
    ),
    (
      ["bench", "hodl"],
      "bgsim: unknown workload 'hodl'; did you mean 'hold'?\n"
        + "usage: bgsim bench [WORKLOAD] [--json]\nSee 'bgsim bench --help'.\n"
    ),
  ])
  func usageErrorsExitWithTwo(arguments: [String], stderr: String) throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let result = try sandbox.run(arguments)
    #expect(result.stderr == stderr)
    #expect(result.stdout == "")
    #expect(result.status == 2)
  }

  @Test func noArgumentsPrintsHelpAndFails() throws {
    let result = try run()
    #expect(result.status == 2)
    #expect(result.stderr.hasPrefix("usage: bgsim <command> [options]\n"))
  }
}
