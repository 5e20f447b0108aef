import Foundation
import TransferEngine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The simulation's record of the resume data it handed out (it outlives processes, like the
/// daemon's): Darwin-format `Data` out, the engine's own resume data back in.
final class ResumeStore: @unchecked Sendable {
  private var byToken: [Int: (contents: ResumeDataContents, engineData: Data)] = [:]

  /// The request each upload's resume data was made from (Darwin keeps the original request in
  /// the data): a continued upload reports it as its `originalRequest`.
  private var uploadRequests: [Int: URLRequest] = [:]

  /// Darwin-format data for the engine's resume data, with its sparse partial file created in
  /// the container's tmp and at `NSTemporaryDirectory()`; nil if the engine's data cannot be
  /// read (it always can).
  /// `iosVersion` is the simulated device's: it chooses the encoding (`ResumeDataEncoding`).
  /// An upload's resume data (iOS 17) names no partial file: the server holds the bytes; its
  /// `request` is kept for the continued task.
  func publish(
    _ engineData: Data, container: AppContainer, iosVersion: IOSVersion = .newest, request: URLRequest? = nil
  ) -> Data? {
    guard let resume = try? ResumeDataContents(engineData) else { return nil }
    byToken[resume.token] = (resume, engineData)
    let encoding = ResumeDataEncoding.forIOS(majorVersion: iosVersion.major)
    if let upload = resume.upload {
      if let request { uploadRequests[resume.token] = request }
      let record = UploadResumeDataRecord(
        url: URL(string: resume.url.string) ?? BridgedSession.placeholderURL, offset: resume.offset,
        bodySize: upload.bodySize, token: resume.token, sessionIdentifier: resume.sessionIdentifier,
        container: container.url.lastPathComponent)
      return UploadResumeDataFormat.encode(record, encoding: encoding)
    }
    let fileName = container.partialFileName(token: resume.token)
    container.writePartialFile(named: fileName, size: resume.offset)
    let isDate = !(resume.validator.hasPrefix("\"") || resume.validator.hasPrefix("W/"))
    let record = ResumeDataRecord(
      url: URL(string: resume.url.string) ?? URL(fileURLWithPath: "/"), bytesReceived: resume.offset,
      tempFileName: fileName, entityTag: isDate ? nil : resume.validator,
      serverDownloadDate: isDate ? resume.validator : nil, token: resume.token,
      sessionIdentifier: resume.sessionIdentifier)
    return ResumeDataFormat.encode(record, encoding: encoding)
  }

  /// Parses upload resume data and finds the engine's data it stands for, with the request the
  /// upload was made from. Like a download's, data used once is let through again (the engine
  /// sends the whole body and lints `resumeDataReused`); unknown data is `stale`.
  func takeUpload(_ data: Data, container: AppContainer) -> Result<
    (record: UploadResumeDataRecord, engineData: Data, request: URLRequest?), ResumeDataProblem
  > {
    switch UploadResumeDataFormat.decode(data) {
    case .failure(let problem): return .failure(problem)
    case .success(let record):
      if record.container != container.url.lastPathComponent { return .failure(.fromAnotherSimulation) }
      guard let (stored, engineData) = byToken[record.token], stored.upload?.bodySize == record.bodySize,
        stored.url.string == record.url.absoluteString, stored.offset == record.offset
      else { return .failure(.stale) }
      return .success((record, engineData, uploadRequests[record.token]))
    }
  }

  /// Parses `data` and finds what it stands for; the partial file it names is consumed.
  /// Stale data (unknown here, or its partial file gone) is a problem, not a trap.
  /// The engine's data comes back for the engine to check again.
  func take(_ data: Data, container: AppContainer) -> Result<
    (ResumeDataRecord, Data), ResumeDataProblem
  > {
    switch ResumeDataFormat.decode(data) {
    case .failure(let problem): return .failure(problem)
    case .success(let record):
      if !container.ownsPartialFileName(record.tempFileName) { return .failure(.fromAnotherSimulation) }
      guard let (stored, engineData) = byToken[record.token], stored.url.string == record.url.absoluteString,
        stored.offset == record.bytesReceived
      else { return .failure(.stale) }
      // A second use finds the partial file gone; the engine restarts it from zero and lints
      // `resumeDataReused`, so let it through when this store has seen the token.
      container.removePartialFile(named: record.tempFileName)
      return .success((record, engineData))
    }
  }

  /// The download URL in resume data, for the error of a refused task.
  static func url(in data: Data) -> URL? {
    if case .success(let record) = ResumeDataFormat.decode(data) { return record.url }
    return nil
  }

  /// The upload URL in upload resume data, for the error of a refused task.
  static func uploadURL(in data: Data) -> URL? {
    if case .success(let record) = UploadResumeDataFormat.decode(data) { return record.url }
    return nil
  }
}
