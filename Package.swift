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
    .target(name: "TransferEngine", dependencies: ["SimKernel"]),
    .target(name: "ScenarioKit", dependencies: ["SimKernel", "TransferEngine"]),
    .target(name: "SimReport", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    .target(name: "SweepKit", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit"]),
    .executableTarget(
      name: "bgsim", dependencies: ["SimKernel", "TransferEngine", "ScenarioKit", "SimReport", "SweepKit"]),
    .testTarget(name: "SimKernelTests", dependencies: ["SimKernel"]),
    .testTarget(name: "TransferEngineTests", dependencies: ["TransferEngine", "SimKernel"]),
    .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "TransferEngine", "SimKernel"]),
    .testTarget(name: "SweepKitTests", dependencies: ["SweepKit", "ScenarioKit", "TransferEngine", "SimKernel"]),
    // Depends on the executable so that `swift test` builds `bgsim` before running it.
    .testTarget(name: "BgsimEndToEndTests", dependencies: ["ScenarioKit", "TransferEngine", "bgsim"]),
  ],
  swiftLanguageModes: [.v6]
)
