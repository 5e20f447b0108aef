// swift-tools-version:6.0
import PackageDescription

/// bgsim: a deterministic discrete-event simulator of the iOS background transfer system.
///
/// Modules, data flowing one way: scenario file -> `ScenarioKit` (validated model) ->
/// `TransferEngine` driven by `SimKernel` -> trace -> expectations and `SimReport`.
let package = Package(
  name: "bgsim",
  products: [
    .executable(name: "bgsim", targets: ["bgsim"]),
    .library(name: "TransferEngine", targets: ["TransferEngine"]),
    .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "SimKernel", linkerSettings: [.linkedLibrary("m")]),
    // Writing that cannot trap or leave half a file: atomic files, whole writes, terminal-safe text.
    .target(name: "SafeOutput"),
    .target(name: "TransferEngine", dependencies: ["SimKernel"]),
    .target(name: "ScenarioKit", dependencies: ["SimKernel", "TransferEngine", "SafeOutput"]),
    .target(name: "SimReport", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SafeOutput"]),
    // Random scenarios checked against the engine's invariants, their minimiser, and the loader fuzz target.
    .target(name: "FuzzKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    // Policy sweeps: grids of knob values times seeds, metrics, CSV/Markdown/SVG, shards.
    .target(name: "SweepKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SafeOutput"]),
    .executableTarget(
      name: "bgsim",
      dependencies: [
        "SimKernel", "TransferEngine", "ScenarioKit", "SimReport", "FuzzKit", "SweepKit", "SafeOutput",
      ]),
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
    // Depends on the executable so that `swift test` builds `bgsim` before running it.
    .testTarget(name: "BgsimEndToEndTests", dependencies: ["ScenarioKit", "TransferEngine", "bgsim"]),
  ],
  swiftLanguageModes: [.v6]
)
