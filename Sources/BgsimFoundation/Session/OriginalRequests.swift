import Foundation
@_spi(Bridge) import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The request the app made each task with, kept for the simulation's life. The system keeps a
/// background task's request, so the object a later process gets for the task (a relaunch's
/// `getAllTasks`, its delegate calls) answers `originalRequest` with the app's own request:
/// method, headers and timeout included, not one rebuilt from the URL. Indexed by the engine's
/// dense task number, so recording one is an array store.
final class OriginalRequests: @unchecked Sendable {
  private let lock = NSLock()
  private var requests: [URLRequest?] = []

  /// Keeps `request` as the one `task` was made with (the first one recorded stays).
  func record(_ request: URLRequest, for task: SimURLSessionTask) {
    let index = task.tableIndex
    lock.lock()
    defer { lock.unlock() }
    if index >= requests.count {
      requests.append(contentsOf: repeatElement(nil, count: index + 1 - requests.count))
    }
    if requests[index] == nil { requests[index] = request }
  }

  /// The request `task` was made with, nil for a task the app did not make through the bridge.
  func request(for task: SimURLSessionTask) -> URLRequest? {
    let index = task.tableIndex
    lock.lock()
    defer { lock.unlock() }
    return index < requests.count ? requests[index] : nil
  }
}
