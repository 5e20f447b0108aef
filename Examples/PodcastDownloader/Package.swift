// swift-tools-version:6.0
import PackageDescription

/// A small podcast download manager written only against Foundation (`PodcastDownloader`), and
/// its tests, which run the unchanged manager inside bgsim through `BgsimFoundation`.
let package = Package(
  name: "PodcastDownloader",
  // bgsim's own floor: SwiftPM refuses a package whose platforms are older than a dependency's.
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [.library(name: "PodcastDownloader", targets: ["PodcastDownloader"])],
  dependencies: [.package(name: "bgsim", path: "../..")],
  targets: [
    // The app's code: Foundation only, no bgsim.
    .target(name: "PodcastDownloader"),
    .testTarget(
      name: "PodcastDownloaderTests",
      dependencies: [
        "PodcastDownloader", .product(name: "BgsimFoundation", package: "bgsim"),
        .product(name: "BgsimTesting", package: "bgsim"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
