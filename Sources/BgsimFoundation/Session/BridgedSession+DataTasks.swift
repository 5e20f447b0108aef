import Foundation
import SimKernel
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Data tasks: the engine's, with its rules (in a background session the lint
/// `dataTaskInBackgroundSession`, and -997 once the app is suspended).
extension BridgedSession {
  /// `dataTask(with:)` for a URL or a request.
  func makeDataTask(_ request: URLRequest) -> URLSessionDataTask {
    host?.noteActivity()
    return makeDataTask(request, handler: nil)
  }

  /// `dataTask(with:completionHandler:)`: a default session calls the handler with the whole
  /// body; a background session refuses the handler as it does for every factory
  /// (`refuseConvenience`).
  func makeDataTask(
    _ request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
  ) -> URLSessionDataTask {
    host?.noteActivity()
    let handler = TaskHandler.data(completionHandler)
    if let refusal = refuseConvenience("dataTask(with:completionHandler:)", request) {
      let core = TaskCore(session: self, engine: nil, request: request, refusal: refusal, handler: handler)
      return register(BridgedDataTask(core: core), core)
    }
    return makeDataTask(request, handler: handler)
  }

  private func makeDataTask(_ request: URLRequest, handler: TaskHandler?) -> URLSessionDataTask {
    let made = makeEngineTask(request) { session, url throws(SimAPIMisuse) in
      try session.dataTask(with: url)
    }
    let core = TaskCore(
      session: self, engine: made.task, request: request, refusal: made.refusal, handler: handler)
    return register(BridgedDataTask(core: core), core)
  }
}

/// The bytes of a response body the app gets in memory (a data task's, an upload's response).
///
/// Scenarios give a resource's size, not its content, so the body is that many zero bytes. The
/// delegate gets it as `dataTask(_:didReceive:)` calls of at most `chunkSize` bytes each, slices of
/// one shared zero buffer, so the bridge never holds more than one chunk whatever the size; an app
/// that keeps the whole body holds it, as on a device. A completion handler gets the body as one
/// `Data`, up to `handlerLimit` bytes; a larger body fails the task with
/// `NSURLErrorDataLengthExceedsMaximum` (-1103) rather than make gigabytes in memory.
enum ResponseBody {
  static let chunkSize = 65_536
  static let handlerLimit: Int64 = 64 << 20
  private static let zeros = Data(count: chunkSize)

  /// Calls `receive` once per chunk of a `bytes`-byte body, each a slice of the zero buffer.
  static func deliver(_ bytes: Int64, _ receive: (Data) -> Void) {
    guard bytes > 0 else { return }
    var left = bytes
    while left > 0 {
      let size = Int(min(left, Int64(chunkSize)))
      receive(size == chunkSize ? zeros : zeros.prefix(size))
      left -= Int64(size)
    }
  }

  /// The whole body for a completion handler, or nil when it is over `handlerLimit`.
  static func whole(_ bytes: Int64) -> Data? {
    guard bytes <= handlerLimit else { return nil }
    return Data(count: Int(max(0, bytes)))
  }
}
