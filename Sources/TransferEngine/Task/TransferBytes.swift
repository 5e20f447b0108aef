import SimKernel

/// A task's byte accounting: what it moved, kept and threw away, and the body it is fetching.
///
/// Every change goes through one of the methods below, so the `bytesConserved` invariant
/// (`onWire + inherited == received + sent + wasted`) has one file to audit. Counts are exact
/// integers: the fluid link's remaining bytes (a `Double`) are turned into bytes moved by one
/// rule, `moved(remaining:)`, used both to settle the counts and to charge the wire, so the two
/// can never disagree, and a count is never negative.
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
  /// The count (sent or received, by direction) when the current flow joined its link.
  private(set) var flowStart: Int64 = 0
  /// Bytes already on disk from the resume data this task continued from.
  private(set) var inherited: Int64 = 0
  /// Size and validator of the resource version being fetched, fixed when the response arrives.
  private(set) var fetchingSize: Int64 = 0
  private(set) var fetchingValidator: String?
  /// An upload's response body size, fixed when its body is sent.
  private(set) var responseBody: Int64 = 0
  /// Last progress decile reported (0...10): `didWriteData` for a download, `didSendBodyData`
  /// for an upload's body.
  private(set) var reportedDecile = 0
  /// The total at the last progress report (received for a download, sent for an upload), for
  /// the next call's `bytesWritten` / `bytesSent`: the bytes since then, as Foundation gives.
  private(set) var reportedTotal: Int64 = 0
  /// When the last per-tenth progress report was made: the next comes no sooner than a
  /// simulated second later.
  private(set) var reportedAt: SimTime?

  /// A download's response starts at `offset` of a `size`-byte body; a restart at 0 throws
  /// away what was received. `resumed` when the offset comes from resume data.
  mutating func downloadResponse(size: Int64, validator: String?, offset: Int64, resumed: Bool) {
    if offset == 0 { wasted = Self.saturatingAdd(wasted, received) }
    if resumed { inherited = offset }
    received = offset
    expectedToReceive = size
    fetchingSize = size
    fetchingValidator = validator
    reportedDecile = size > 0 ? Self.tenths(offset, of: size) : 0
    // Resume data: the new task's first call counts from the offset. A retry in the same task
    // that continues from what it received keeps counting from its last report.
    if resumed || offset < reportedTotal { reportedTotal = offset }
  }

  /// A task made from an upload's resume data: the server already has `offset` bytes of the
  /// `size`-byte body, so sending and its progress reports continue from there.
  mutating func uploadResumed(offset: Int64, size: Int64) {
    inherited = offset
    sent = offset
    reportedTotal = offset
    reportedDecile = size > 0 ? Self.tenths(offset, of: size) : 0
  }

  /// A flow of `bytes` joins a link, continuing from the current count of its direction.
  mutating func flowJoined(_ bytes: Int64, up: Bool) {
    flowBytes = bytes
    flowStart = up ? sent : received
  }

  /// Bytes the current flow has moved when `remaining` (fluid, from the link) are left. The one
  /// rounding rule: remaining bytes round up, so a byte counts once it has wholly moved; the
  /// result is clamped to `0...flowBytes`, so floating-point error at a flow's start (a flow
  /// that leaves the instant it joined) or end never makes it negative or too large.
  func moved(remaining: Double) -> Int64 {
    guard remaining.isFinite else { return 0 }
    return min(flowBytes, max(0, flowBytes - Self.wholeBytes(remaining)))
  }

  /// Where a flow stands now that `remaining` bytes are left.
  mutating func settle(up: Bool, remaining: Double) {
    if up {
      sent = flowStart + moved(remaining: remaining)
    } else {
      received = flowStart + moved(remaining: remaining)
    }
  }

  /// The flow left its link with `remaining` bytes unsent: count what it moved.
  mutating func flowLeft(remaining: Double) {
    onWire = Self.saturatingAdd(onWire, moved(remaining: remaining))
  }

  /// The flow left its link stalled: count what it moved; nothing flows until it is back.
  mutating func flowStalled(remaining: Double) {
    flowLeft(remaining: remaining)
    flowBytes = 0
  }

  /// The flow moved all its bytes.
  mutating func flowFinished() { onWire = Self.saturatingAdd(onWire, flowBytes) }

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
  /// Progress reports start again from 0.
  mutating func discardUploadProgress() {
    wasted = Self.saturatingAdd(wasted, Self.saturatingAdd(sent, received))
    sent = 0
    received = 0
    reportedDecile = 0
    reportedTotal = 0
  }

  /// A resumable upload stopped: the server keeps the body bytes it got (`sent`), so only the
  /// response's progress is thrown away.
  mutating func keepUploadBody() {
    wasted = Self.saturatingAdd(wasted, received)
    received = 0
  }

  mutating func reported(decile: Int, at time: SimTime? = nil) {
    reportedDecile = decile
    if let time { reportedAt = time }
  }

  /// A progress report says `total` bytes moved; returns the bytes since the last report.
  mutating func reportedProgress(total: Int64) -> Int64 {
    let step = max(0, total - reportedTotal)
    reportedTotal = total
    return step
  }

  // MARK: Arithmetic that cannot trap
  // Sizes a scenario can write are at most 1 TiB, but the engine's Swift API takes any Int64
  // and a task's bytes on the wire grow with every restart: these never overflow.

  /// Fluid bytes from a link rounded up to whole bytes, clamped to 0...Int64.max.
  static func wholeBytes(_ remaining: Double) -> Int64 {
    let up = remaining.rounded(.up)
    if !(up > 0) { return 0 }
    return up >= 9.223_372_036_854_775e18 ? Int64.max : Int64(up)
  }

  /// `a + b`, stopping at `Int64.max` (and `Int64.min`).
  static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
  }

  /// `part * 10 / whole` without overflowing the product: which tenth of `whole` `part` is in.
  static func tenths(_ part: Int64, of whole: Int64) -> Int {
    guard whole > 0, part < whole else { return 10 }
    guard part > 0 else { return 0 }
    return Int(whole.dividingFullWidth(part.multipliedFullWidth(by: 10)).quotient)
  }

  /// `whole * k / 10` without overflowing the product: the byte count at `k` tenths.
  static func bytes(atTenth k: Int, of whole: Int64) -> Int64 {
    guard whole > 0, k > 0 else { return 0 }
    guard k < 10 else { return whole }
    return Int64(10).dividingFullWidth(whole.multipliedFullWidth(by: Int64(k))).quotient
  }
}
