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
  /// do the members the bridge does not override (`webSocketTask(with:)`). Their requests come
  /// here. Inside `Simulation.run(awaiting:)`, a data or upload request of a bridged session is
  /// handed to the simulation (`AsyncRequest`) and answered with the simulated response and
  /// body; every other request is answered at once with `NSURLErrorUnsupportedURL` and
  /// `bgsimNotSimulated` in `userInfo`: no byte goes out, and the simulation sees nothing (the
  /// call happens on Foundation's own threads at real time, so it cannot be traced
  /// deterministically).
  final class OfflineURLProtocol: URLProtocol {
    /// `userInfo` key (value `true`) on the error: the bridge refused a call it cannot simulate.
    static let notSimulatedKey = "bgsimNotSimulated"

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canInit(with task: URLSessionTask) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
      // A download task's file is handed over through a property only Foundation's own
      // protocols can set (finishing one from here traps), so `download(for:)` stays refused.
      if !(task is URLSessionDownloadTask), let session = Self.bridgedSession(of: task),
        let host = session.host
      {
        let plain = request
        let expected = task?.countOfBytesExpectedToSend ?? 0
        let upload = task is URLSessionUploadTask ? max(expected, 0) : nil
        let asked = AsyncRequest(request: plain, session: session, uploadBytes: upload) {
          [weak self] data, response, error in self?.answer(data, response, error)
        }
        if host.asyncMeeting.offer(asked) { return }
      }
      refuse()
    }

    /// The bridged session a task of Foundation's own machinery belongs to. swift-corelibs-foundation
    /// keeps it in the task's internal `session` property, which only reflection can read.
    static func bridgedSession(of task: URLSessionTask?) -> BridgedSession? {
      guard let task else { return nil }
      var mirror: Mirror? = Mirror(reflecting: task)
      while let current = mirror {
        for child in current.children where child.label == "session" {
          if let session = child.value as? BridgedSession { return session }
          if case let session?? = child.value as? URLSession?, let bridged = session as? BridgedSession {
            return bridged
          }
        }
        mirror = current.superclassMirror
      }
      return nil
    }

    /// Passes the simulated answer to Foundation's task.
    private func answer(_ data: Data?, _ response: URLResponse?, _ error: Error?) {
      if let error {
        client?.urlProtocol(self, didFailWithError: error)
        return
      }
      if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
      if let data, !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
      client?.urlProtocolDidFinishLoading(self)
    }

    /// Outside `Simulation.run(awaiting:)`, or for a session that is gone: -1002 at once.
    private func refuse() {
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
