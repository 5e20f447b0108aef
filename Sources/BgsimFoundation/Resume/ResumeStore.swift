import Foundation
import TransferEngine

/// The simulation's record of the resume data it handed out (it outlives processes, like the
/// daemon's): Darwin-format `Data` out, the engine's `ResumeData` back in.
final class ResumeStore: @unchecked Sendable {
  private var byToken: [Int: ResumeData] = [:]

  /// Darwin-format data for `resume`, with its sparse partial file created in `temporaryDirectory`.
  func publish(_ resume: ResumeData, temporaryDirectory: URL) -> Data {
    byToken[resume.token] = resume
    let fileName = "CFNetworkDownload_bgsim\(resume.token).tmp"
    AppContainer.writeSparseFile(at: temporaryDirectory.appendingPathComponent(fileName), size: resume.offset)
    let isDate = !(resume.validator.hasPrefix("\"") || resume.validator.hasPrefix("W/"))
    let record = ResumeDataRecord(
      url: URL(string: resume.url.string) ?? URL(fileURLWithPath: "/"), bytesReceived: resume.offset,
      tempFileName: fileName, entityTag: isDate ? nil : resume.validator,
      serverDownloadDate: isDate ? resume.validator : nil, token: resume.token,
      sessionIdentifier: resume.sessionIdentifier)
    return ResumeDataFormat.encode(record)
  }

  /// Parses `data` and finds what it stands for; the partial file it names is consumed.
  /// Stale data (unknown here, or its partial file gone) is a problem, not a trap.
  func take(_ data: Data, temporaryDirectory: URL) -> Result<
    (ResumeDataRecord, ResumeData), ResumeDataProblem
  > {
    switch ResumeDataFormat.decode(data) {
    case .failure(let problem): return .failure(problem)
    case .success(let record):
      guard let stored = byToken[record.token], stored.url.string == record.url.absoluteString,
        stored.offset == record.bytesReceived
      else { return .failure(.stale) }
      let partial = temporaryDirectory.appendingPathComponent(record.tempFileName)
      // A second use finds the partial file gone; the engine restarts it from zero and lints
      // `resumeDataReused`, so let it through when this store has seen the token.
      try? FileManager.default.removeItem(at: partial)
      return .success((record, stored))
    }
  }

  /// The download URL in resume data, for the error of a refused task.
  static func url(in data: Data) -> URL? {
    if case .success(let record) = ResumeDataFormat.decode(data) { return record.url }
    return nil
  }
}
