import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking

  /// The only protocol the bridged session's superclass may use on Linux (its `configuration`
  /// names only this one), so that nothing a bridged session is asked reaches the real network.
  ///
  /// swift-corelibs-foundation's `async` convenience methods (`data(for:)`, `data(from:)`,
  /// `download(for:)`, `download(from:)`, `upload(for:fromFile:)`, `upload(for:from:)`) are
  /// `public`, not `open`, extension methods: a subclass cannot override them, and they make
  /// their tasks with the superclass's private machinery, not with the bridge's factories. So
  /// do the members the bridge does not override (`webSocketTask(with:)`). Every request they make is answered by this protocol, at once,
  /// with `NSURLErrorUnsupportedURL` and `bgsimNotSimulated` in `userInfo`: no byte goes out,
  /// and the simulation sees nothing (the call happens on Foundation's own threads at real time,
  /// so it cannot be traced deterministically).
  final class OfflineURLProtocol: URLProtocol {
    /// `userInfo` key (value `true`) on the error: the bridge refused a call it cannot simulate.
    static let notSimulatedKey = "bgsimNotSimulated"

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canInit(with task: URLSessionTask) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
      var info: [String: Any] = [Self.notSimulatedKey: true]
      if let url = request.url {
        info[NSURLErrorFailingURLErrorKey] = url
        info[FoundationErrors.failingURLStringKey] = url.absoluteString
      }
      client?.urlProtocol(
        self,
        didFailWithError: NSError(domain: NSURLErrorDomain, code: NSURLErrorUnsupportedURL, userInfo: info))
    }

    override func stopLoading() {}
  }
#endif
