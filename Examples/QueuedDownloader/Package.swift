// swift-tools-version:6.0
import PackageDescription

/// A download manager in Tiercel's shape written only against Foundation (`QueuedDownloader`):
/// a serial queue under its delegate queue, a debounced task-list write, resume data kept in the
/// temporary directory. Its tests run the unchanged manager inside bgsim through `BgsimTesting`.
let package = Package(
  name: "QueuedDownloader",
  // bgsim's own floor: a package whose tests use its products cannot declare a lower one.
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [.library(name: "QueuedDownloader", targets: ["QueuedDownloader"])],
  dependencies: [.package(name: "bgsim", path: "../..")],
  targets: [
    // The app's code: Foundation only, no bgsim.
    .target(name: "QueuedDownloader"),
    .testTarget(
      name: "QueuedDownloaderTests",
      dependencies: [
        "QueuedDownloader", .product(name: "BgsimFoundation", package: "bgsim"),
        .product(name: "BgsimTesting", package: "bgsim"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
