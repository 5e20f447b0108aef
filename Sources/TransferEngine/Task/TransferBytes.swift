import SimKernel

/// A task's byte accounting: what it moved, kept and threw away, and the body it is fetching.
///
/// Every change goes through one of the methods below, so the `bytesConserved` invariant
/// (`onWire + inherited == received + sent + wasted`) has one file to audit.
struct TransferBytes: Equatable {
  private(set) var received: Int64 = 0
  private(set) var sent: Int64 = 0
  /// `countOfBytesExpectedToReceive`: -1 until a response arrives.
  private(set) var expectedToReceive: Int64 = -1
  /// Bytes moved and then thrown away by restarts at zero.
  private(set) var wasted: Int64 = 0
  /// Bytes moved on the wire by every attempt, both directions.
  private(set) var onWire: Int64 = 0
  /// Bytes the current link flow had to move when it joined the link.
  private(set) var flowBytes: Int64 = 0
  /// Bytes already on disk from the resume data this task continued from.
  private(set) var inherited: Int64 = 0
  /// Size and validator of the resource version being fetched, fixed when the response arrives.
  private(set) var fetchingSize: Int64 = 0
  private(set) var fetchingValidator: String?
  /// An upload's response body size, fixed when its body is sent.
  private(set) var responseBody: Int64 = 0
  /// Last `didWriteData` decile reported (0...10).
  private(set) var reportedDecile = 0

  /// A download's response starts at `offset` of a `size`-byte body; a restart at 0 throws
  /// away what was received. `resumed` when the offset comes from resume data.
  mutating func downloadResponse(size: Int64, validator: String?, offset: Int64, resumed: Bool) {
    if offset == 0 { wasted += received }
    if resumed { inherited = offset }
    received = offset
    expectedToReceive = size
    fetchingSize = size
    fetchingValidator = validator
    reportedDecile = size > 0 ? Int(offset * 10 / size) : 0
  }

  /// A flow of `bytes` joins a link.
  mutating func flowJoined(_ bytes: Int64) { flowBytes = bytes }

  /// Where a flow stands now that `remaining` bytes (fluid, from the link) are left.
  mutating func settle(up: Bool, total: Int64, remaining: Double) {
    if up {
      sent = max(0, total - Int64(remaining.rounded(.up)))
    } else {
      received = max(0, total - Int64(remaining.rounded(.up)))
    }
  }

  /// The flow left its link with `remaining` bytes unsent: count what it moved.
  mutating func flowLeft(remaining: Double) {
    onWire += flowBytes - Int64(remaining.rounded(.up))
  }

  /// The flow left its link stalled: count what it moved; nothing flows until it is back.
  mutating func flowStalled(remaining: Double) {
    flowLeft(remaining: remaining)
    flowBytes = 0
  }

  /// The flow moved all its bytes.
  mutating func flowFinished() { onWire += flowBytes }

  /// An upload's body is all sent; `responseBody` bytes come back.
  mutating func uploadSent(size: Int64, responseBody body: Int64) {
    sent = size
    responseBody = body
    expectedToReceive = body
  }

  /// The response body (download or upload response) all arrived.
  mutating func responseReceived(isDownload: Bool) {
    received = isDownload ? fetchingSize : responseBody
  }

  /// An upload cannot continue where it stopped: both directions' progress is wasted.
  mutating func discardUploadProgress() {
    wasted += sent + received
    sent = 0
    received = 0
  }

  mutating func reported(decile: Int) { reportedDecile = decile }
}
