import SimKernel
import Testing

@testable import TransferEngine

/// The daemon's record of a task changes only through its inputs, and each input changes
/// exactly what its name says: timers handed back are forgotten, a response ends a redirect run.
@Suite("Task record")
struct TaskRecordTests {
  static let url = SimURL("https://cdn.example.com/a.bin")!
  static let other = SimURL("https://mirror.example.com/a.bin")!

  /// Two distinct handles, as the scheduler hands them out.
  static func handles() -> (EventHandle, EventHandle) {
    var queue = EventQueue<Int>()
    return (queue.schedule(1, at: SimTime(nanoseconds: 1)), queue.schedule(2, at: SimTime(nanoseconds: 2)))
  }

  @Test("a new record is suspended, at its URL, with no response, error or timers")
  func fresh() {
    let r = TaskRecord(url: Self.url, resumeFrom: nil)
    #expect(r.state == .suspended)
    #expect(r.currentURL == Self.url)
    #expect(r.statusCode == nil && r.responseHeaders.isEmpty && r.error == nil && r.cancelReason == nil)
    #expect(r.resourceTimeoutHandle == nil && r.requestTimeoutHandle == nil && r.connectionKey == nil)
  }

  @Test("resume runs the task, fixes its start order and keeps its resource timer")
  func resumed() {
    let (resource, _) = Self.handles()
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.resumed(sequence: 7, resourceTimer: resource, deadline: SimTime(.hours(1)))
    #expect(r.state == .running)
    #expect(r.resumeSequence == 7)
    #expect(r.resourceTimeoutHandle == resource)
  }

  @Test("redirects count up and move the URL; the next response resets the count")
  func redirects() {
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.redirected(to: Self.other)
    r.redirected(to: Self.url)
    #expect(r.redirectsInARow == 2)
    #expect(r.currentURL == Self.url)
    r.responded(status: 206, head: ResponseHead(contentLength: 500, etag: "v1", acceptsRanges: true))
    #expect(r.redirectsInARow == 0)
    #expect(r.statusCode == 206)
    #expect(
      r.responseHeaders == ["Content-Length": "500", "ETag": "v1", "Accept-Ranges": "bytes"])
    r.responded(status: 404, head: ResponseHead())
    #expect(r.responseHeaders.isEmpty, "no resource, no headers")
    #expect(r.currentURL == Self.url)
  }

  @Test("stopping the idle timer hands it back once and forgets it")
  func idleTimer() {
    let (_, request) = Self.handles()
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.idleTimerStarted(request)
    #expect(r.idleTimerStopped() == request)
    #expect(r.requestTimeoutHandle == nil)
    #expect(r.idleTimerStopped() == nil)
  }

  @Test("ending completes the task and hands back both pending timers, then none")
  func ended() {
    let (resource, request) = Self.handles()
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.resumed(sequence: 1, resourceTimer: resource, deadline: SimTime(.hours(1)))
    r.idleTimerStarted(request)
    let timers = r.ended()
    #expect(timers.resource == resource && timers.request == request)
    #expect(r.state == .completed)
    #expect(r.resourceTimeoutHandle == nil && r.requestTimeoutHandle == nil)
    let again = r.ended()
    #expect(again.resource == nil && again.request == nil)
  }

  @Test("a fired resource timer is not handed back to be cancelled")
  func resourceFired() {
    let (resource, _) = Self.handles()
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.resumed(sequence: 1, resourceTimer: resource, deadline: SimTime(.hours(1)))
    r.resourceTimerFired()
    #expect(r.ended().resource == nil)
  }

  @Test("failure keeps the error; cancellation keeps the error and the reason and completes")
  func endings() {
    var failed = TaskRecord(url: Self.url, resumeFrom: nil)
    failed.failed(SimURLError(.timedOut))
    #expect(failed.error?.code == .timedOut)
    #expect(failed.cancelReason == nil)
    var cancelled = TaskRecord(url: Self.url, resumeFrom: nil)
    let error = SimURLError(.cancelled, cancelReason: .userForceQuitApplication)
    cancelled.cancelled(reason: .userForceQuitApplication, error: error)
    #expect(cancelled.state == .completed)
    #expect(cancelled.error == error)
    #expect(cancelled.cancelReason == .userForceQuitApplication)
  }

  @Test("reused resume data keeps its token, URL and validator but restarts at 0")
  func reusedResumeData() {
    let data = ResumeDataContents(
      token: 3, url: Self.url, offset: 500, validator: "v1", sessionIdentifier: "bg")
    var r = TaskRecord(url: Self.url, resumeFrom: data)
    #expect(r.resumeFrom == data)
    r.resumeDataReused()
    #expect(r.resumeFrom?.offset == 0)
    #expect(r.resumeFrom?.token == 3 && r.resumeFrom?.validator == "v1" && r.resumeFrom?.url == Self.url)
  }

  @Test("the connection slot is the queue the attempt took, not the host it was redirected to")
  func connection() {
    var r = TaskRecord(url: Self.url, resumeFrom: nil)
    r.tookConnection(WaitQueue.Key(index: 3))
    r.redirected(to: Self.other)
    #expect(r.connectionKey == WaitQueue.Key(index: 3))
  }
}
