import BgsimTesting
import Foundation
import PodcastDownloader

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if !(canImport(Darwin) && !os(macOS))
  // Foundation declares `urlSessionDidFinishEvents(forBackgroundURLSession:)` on iOS only;
  // elsewhere the adapter tells the bridge the manager has it.
  extension PodcastDownloader: URLSessionBackgroundEventsDelegate {}
#endif

/// The adapter: what the app's `UIApplicationDelegate` does, with the one seam filled in by the
/// simulation (`makeURLSession` and `after` in place of `URLSession(...)` and `asyncAfter`).
final class PodcastAppDelegate: SimulatedAppDelegate {
  let saveDelay: TimeInterval
  var downloader: PodcastDownloader!

  init(saveDelay: TimeInterval) { self.saveDelay = saveDelay }

  func applicationDidFinishLaunching(_ application: SimulatedApplication) {
    downloader = PodcastDownloader(
      container: application.containerDirectory, saveDelay: saveDelay, delay: application.after
    ) { identifier, delegate in
      application.makeURLSession(
        configuration: .simulatedBackground(withIdentifier: identifier), delegate: delegate,
        delegateQueue: nil)
    }
  }

  func application(
    _ application: SimulatedApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {
    downloader.backgroundCompletionHandler = completionHandler
  }
}

/// What the user sees: each episode and its state, one line each (the exploration compares it
/// with the run without faults after the user's last launch).
extension PodcastAppDelegate: UserVisibleState {
  func userVisibleState() -> String {
    guard let downloader else { return "" }
    return downloader.states.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
      separator: "\n")
  }
}
