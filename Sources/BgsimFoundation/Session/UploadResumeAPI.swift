import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if !canImport(Darwin)
  // swift-corelibs-foundation has no resumable uploads: no `uploadTask(withResumeData:)`, no
  // `cancel(byProducingResumeData:)` on an upload task. The bridge adds them on Linux, for code
  // that imports BgsimFoundation, with Darwin's signatures (there they are iOS 17 / macOS 14
  // methods the bridge overrides), so the same code runs on both platforms.

  extension URLSession {
    /// Darwin's `uploadTask(withResumeData:)` (iOS 17): on a bridged session, a task that
    /// continues the upload at the server's offset (docs/foundation-bridge.md, "Upload resume
    /// data"). On any other session Linux cannot resume uploads: the task fails with
    /// `NSURLErrorUnsupportedURL` (-1002) once resumed, without touching the network.
    public func uploadTask(withResumeData resumeData: Data) -> URLSessionUploadTask {
      if let bridged = self as? BridgedSession {
        return bridged.uploadTask(resumingFrom: resumeData, handler: nil)
      }
      return uploadTask(with: UploadResumeAPI.unsupportedRequest, from: Data())
    }

    /// Darwin's `uploadTask(withResumeData:completionHandler:)` (iOS 17): as
    /// `uploadTask(withResumeData:)`, with the completion handler a bridged session's factories
    /// take (a background session refuses it, as a device does).
    public func uploadTask(
      withResumeData resumeData: Data,
      completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
    ) -> URLSessionUploadTask {
      if let bridged = self as? BridgedSession {
        return bridged.uploadTask(resumingFrom: resumeData, handler: .data(completionHandler))
      }
      return uploadTask(
        with: UploadResumeAPI.unsupportedRequest, from: Data(), completionHandler: completionHandler)
    }
  }

  extension URLSessionUploadTask {
    /// Darwin's `cancel(byProducingResumeData:)` for uploads (iOS 17): on a bridged task, resume
    /// data when the server can continue the upload, else nil, delivered on the delegate queue.
    /// Any other task is cancelled and gets nil, as swift-corelibs-foundation does for downloads.
    public func cancel(byProducingResumeData completionHandler: @escaping @Sendable (Data?) -> Void) {
      if let bridged = self as? BridgedUploadTask {
        bridged.core.liveSession?.cancelProducingResumeData(bridged.core, bridged, completionHandler)
        return
      }
      cancel()
      completionHandler(nil)
    }
  }

  enum UploadResumeAPI {
    /// A URL no protocol loads: swift-corelibs-foundation fails its task with -1002 when resumed.
    static let unsupportedRequest = URLRequest(url: URL(string: "bgsim-unsupported:upload-resume-data")!)
  }
#endif
