import Foundation
import TransferEngine

/// Paths from another simulation's container. A test process runs many simulations, each with a
/// container of its own, and Swift statics and globals survive all of them (a device starts every
/// process afresh): a `static let documents = ...` computed in one simulation still names that
/// simulation's container in the next. When such a path reaches the bridge (an upload's file,
/// resume data whose partial file belongs to another container) it is the lint
/// `staleContainerPath`. The other container's name (a UUID) is not traced, so traces stay equal
/// from run to run.
extension BridgeHost {
  /// The folder every simulation's container is made in.
  private var containersFolder: String { container.url.deletingLastPathComponent().standardizedFileURL.path }

  /// The part of `url` after another simulation's container, nil when `url` is not in one.
  func pathInAnotherContainer(_ url: URL) -> String? {
    let path = url.standardizedFileURL.path
    let own = container.url.standardizedFileURL.path
    guard path.hasPrefix(containersFolder + "/"), path != own, !path.hasPrefix(own + "/") else { return nil }
    let rest = path.dropFirst(containersFolder.count + 1).split(
      separator: "/", omittingEmptySubsequences: false)
    return rest.dropFirst().joined(separator: "/")
  }

  /// Lints `url` when it is in another simulation's container; `use` says where the app gave it.
  func checkContainerPath(_ url: URL, use: String) {
    guard let rest = pathInAnotherContainer(url) else { return }
    lintStaleContainerPath("<another simulation's container>/\(rest)", use: use)
  }

  func lintStaleContainerPath(_ shown: String, use: String) {
    simulation?.bridgeLint(
      .staleContainerPath,
      "\(use) named '\(shown)', a path in the container of an earlier simulation in this test process: "
        + "a static or global computed then (a `static let` path) survives into later simulations, "
        + "which a device never does; compute paths from SimulatedApplication.containerDirectory at each "
        + "launch",
      [TraceField("path", .string(shown))])
  }
}
