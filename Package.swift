// swift-tools-version:6.0
import PackageDescription

/// bgsim: a deterministic discrete-event simulator of the iOS background transfer system.
///
/// Modules, data flowing one way: scenario file -> `ScenarioKit` (validated model) ->
/// `TransferEngine` driven by `SimKernel` -> trace -> expectations and `SimReport`.
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
  ],
  dependencies: [],
  targets: [
    .target(name: "SimKernel", linkerSettings: [.linkedLibrary("m")]),
    .target(name: "TransferEngine", dependencies: ["SimKernel"]),
    .target(name: "ScenarioKit", dependencies: ["SimKernel", "TransferEngine"]),
    .target(name: "SimReport", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    // Random scenarios checked against the engine's invariants, their minimiser, and the loader fuzz target.
    .target(name: "FuzzKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    // Policy sweeps: grids of knob values times seeds, metrics, CSV/Markdown/SVG, shards.
    .target(name: "SweepKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    .executableTarget(
      name: "bgsim",
      dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SimReport", "FuzzKit", "SweepKit"]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "TransferEngineTests", dependencies: ["TransferEngine", "SimKernel"]),
    .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(
      name: "FuzzKitTests", dependencies: ["FuzzKit", "ScenarioKit", "TransferEngine", "SimKernel"],
      exclude: ["Regressions"]),
    .testTarget(
      name: "SimReportTests", dependencies: ["SimReport", "ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(
      name: "SweepKitTests", dependencies: ["SweepKit", "ScenarioKit", "TransferEngine", "SimKernel"]),
    // Depends on the executable so that `swift test` builds `bgsim` before running it.
    .testTarget(name: "BgsimEndToEndTests", dependencies: ["ScenarioKit", "TransferEngine", "bgsim"]),
  ],
  swiftLanguageModes: [.v6]
)
