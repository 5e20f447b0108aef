import Foundation
import TransferEngine

/// The simulation's record of the resume data it handed out (it outlives processes, like the
/// daemon's): Darwin-format `Data` out, the engine's own resume data back in.
final class ResumeStore: @unchecked Sendable {
  private var byToken: [Int: (contents: ResumeDataContents, engineData: Data)] = [:]

  /// Darwin-format data for the engine's resume data, with its sparse partial file created in
  /// the container's tmp and at `NSTemporaryDirectory()`; nil if the engine's data cannot be
  /// read (it always can).
  /// `iosVersion` is the simulated device's: it chooses the encoding (`ResumeDataEncoding`).
  /// Upload resume data is not bridged yet: nil.
  func publish(_ engineData: Data, container: AppContainer, iosVersion: IOSVersion = .newest) -> Data? {
    guard let resume = try? ResumeDataContents(engineData), resume.upload == nil else { return nil }
    byToken[resume.token] = (resume, engineData)
    let fileName = container.partialFileName(token: resume.token)
    container.writePartialFile(named: fileName, size: resume.offset)
    let isDate = !(resume.validator.hasPrefix("\"") || resume.validator.hasPrefix("W/"))
    let record = ResumeDataRecord(
      url: URL(string: resume.url.string) ?? URL(fileURLWithPath: "/"), bytesReceived: resume.offset,
      tempFileName: fileName, entityTag: isDate ? nil : resume.validator,
      serverDownloadDate: isDate ? resume.validator : nil, token: resume.token,
      sessionIdentifier: resume.sessionIdentifier)
    return ResumeDataFormat.encode(record, encoding: .forIOS(majorVersion: iosVersion.major))
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
}
