// swift-tools-version:6.0
import PackageDescription

/// bgsim: a deterministic discrete-event simulator of the iOS background transfer system.
///
/// Modules, data flowing one way: scenario file -> `ScenarioKit` (validated model) ->
/// `TransferEngine` driven by `SimKernel` -> trace -> expectations and `SimReport`.
/// The portable build (`BGSIM_PORTABLE=1`, set by scripts/build-static.sh) leaves the Foundation
/// bridge out of the `bgsim` tool: FoundationNetworking linked statically needs libcurl, which a
/// binary meant for any glibc machine cannot assume. Only `bgsim bench bridge` uses it there.
let portable = Context.environment["BGSIM_PORTABLE"] != nil

let package = Package(
  name: "bgsim",
  // The oldest systems the sources compile for: `firstRange(of:)`, `split(separator:)` with a
  // string, `ContinuousClock` and `Duration` need macOS 13 / iOS 16 (checked by
  // scripts/check-platform-apis.sh). Linux needs no entry.
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .executable(name: "bgsim", targets: ["bgsim"]),
    .library(name: "SimKernel", targets: ["SimKernel"]),
    .library(name: "TransferEngine", targets: ["TransferEngine"]),
    .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
    // Ships inside an iOS app: writes what the app observes as a bgsim trace (Foundation only).
    .library(name: "BgsimRecorder", targets: ["BgsimRecorder"]),
    // Code written against Foundation's URLSession, run inside a simulation (foundation-bridge.md).
    .library(name: "BgsimFoundation", targets: ["BgsimFoundation"]),
    // Exploration (exploration.md) and the test-runner helpers, for a team's Swift tests.
    .library(name: "BgsimTesting", targets: ["BgsimTesting"]),
    // `swift package bgsim check Scenarios` in a package that depends on this one.
    .plugin(name: "BgsimCommand", targets: ["BgsimCommand"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "SimKernel", linkerSettings: [.linkedLibrary("m")]),
    // Writing that cannot trap or leave half a file: atomic files, whole writes, terminal-safe text.
    .target(name: "SafeOutput"),
    .target(name: "TransferEngine", dependencies: ["SimKernel"]),
    .target(name: "ScenarioKit", dependencies: ["SimKernel", "TransferEngine", "SafeOutput"]),
    .target(name: "SimReport", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SafeOutput"]),
    .target(name: "BgsimFoundation", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    // Exploration without the bridge: faults, kill points, oracles, shrinking, findings, replays
    // (shared by `BgsimTesting` and a scripted app's explorer, which the portable bgsim can use).
    // SweepKit for `ParallelRunner`, which runs the runs on worker threads.
    .target(
      name: "ExplorationKit",
      dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "FuzzKit", "SweepKit"]),
    // What a test file imports: the bridge re-exported, `Exploration`, and issues for Testing and XCTest.
    .target(
      name: "BgsimTesting", dependencies: ["BgsimFoundation", "ExplorationKit", "SimKernel", "SimReport"]),
    // Random scenarios checked against the engine's invariants, their minimiser, and the loader fuzz target.
    .target(name: "FuzzKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    // Policy sweeps: grids of knob values times seeds, metrics, CSV/Markdown/SVG, shards.
    .target(name: "SweepKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SafeOutput"]),
    // Fitting policy knobs to an observed log: matching, the grid search, identification, outputs.
    .target(
      name: "CalibrationKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SweepKit"]),
    // No dependency on purpose: it must build inside an app, with Foundation alone.
    .target(name: "BgsimRecorder"),
    .executableTarget(
      name: "bgsim",
      dependencies: [
        "SimKernel", "TransferEngine", "ScenarioKit", "SimReport", "FuzzKit", "SweepKit", "CalibrationKit",
        "SafeOutput", "ExplorationKit",
      ] + (portable ? [] : ["BgsimFoundation"]),
      swiftSettings: portable ? [.define("BGSIM_PORTABLE")] : []),
    // Runs the tool above with the user's arguments. It declares no permission, so reading
    // commands (`check`, `run`, `validate`) run without a prompt, in CI too; on macOS, where
    // plugins run in a sandbox, writing a file (`--junit`, `report --out`) into the package needs
    // `--allow-writing-to-package-directory` (README, "Getting bgsim").
    .plugin(
      name: "BgsimCommand",
      capability: .command(
        intent: .custom(verb: "bgsim", description: "Run bgsim (check, run, report, ...) in this package")),
      dependencies: ["bgsim"]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "SafeOutputTests", dependencies: ["SafeOutput"]),
    .testTarget(name: "TransferEngineTests", dependencies: ["TransferEngine", "SimKernel"]),
    .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(
      name: "FuzzKitTests", dependencies: ["FuzzKit", "ScenarioKit", "TransferEngine", "SimKernel"],
      exclude: ["Regressions"]),
    .testTarget(
      name: "SimReportTests", dependencies: ["SimReport", "ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(
      name: "SweepKitTests", dependencies: ["SweepKit", "ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(
      name: "CalibrationKitTests",
      dependencies: [
        "CalibrationKit", "BgsimRecorder", "BgsimFoundation", "ScenarioKit", "TransferEngine", "SimKernel",
      ]),
    .testTarget(name: "BgsimRecorderTests", dependencies: ["BgsimRecorder"]),
    .testTarget(name: "BgsimFoundationTests", dependencies: ["BgsimFoundation"]),
    .testTarget(
      name: "ExplorationKitTests",
      dependencies: ["ExplorationKit", "ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(name: "BgsimTestingTests", dependencies: ["BgsimTesting"]),
    // Depends on the executable so that `swift test` builds `bgsim` before running it.
    .testTarget(name: "BgsimEndToEndTests", dependencies: ["ScenarioKit", "TransferEngine", "bgsim"]),
  ],
  swiftLanguageModes: [.v6]
)
