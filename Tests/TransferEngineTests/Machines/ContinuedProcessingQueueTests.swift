import SimKernel
import Testing

@testable import TransferEngine

/// The queue of continued-processing requests alone: first in, first out, through cancellations,
/// requests made again after a cancellation, and the compaction of its spent front.
@Suite("Continued-processing queue (component)")
struct ContinuedProcessingQueueTests {
  static func entry(_ identifier: String) -> ContinuedProcessingTasks.Entry {
    .init(identifier: identifier, title: identifier, subtitle: "", launch: { _, _ in })
  }

  @Test("requests start in the order queued, skipping the cancelled ones; one queued again goes last")
  func firstInFirstOut() {
    var tasks = ContinuedProcessingTasks()
    var model: [String] = []
    for i in 0..<300 {
      tasks.addQueued(Self.entry("r\(i)"))
      model.append("r\(i)")
    }
    // Cancel every fifth, then queue two of them again.
    for i in stride(from: 0, to: 300, by: 5) {
      #expect(tasks.removeQueued("r\(i)")?.identifier == "r\(i)")
      model.removeAll { $0 == "r\(i)" }
    }
    #expect(tasks.removeQueued("r0") == nil)
    for again in ["r5", "r10"] {
      #expect(!tasks.contains(again))
      tasks.addQueued(Self.entry(again))
      model.append(again)
    }
    #expect(tasks.queued.map(\.identifier) == model)
    #expect(tasks.queuedCount == model.count)
    // Start them one by one with room for one at a time (past the compaction of the front).
    var started: [String] = []
    while let next = tasks.nextToStart(limit: 1) {
      started.append(next.identifier)
      #expect(!tasks.contains(next.identifier))
      #expect(tasks.queued.map(\.identifier) == Array(model.dropFirst(started.count)))
      if started.count == 150 {
        // Cancelling after the compaction still finds the right request.
        let victim = model[200]
        #expect(tasks.removeQueued(victim)?.identifier == victim)
        model.remove(at: 200)
      }
    }
    #expect(started == model)
    #expect(tasks.queuedCount == 0)
  }

  @Test("no room, no start; the process ending takes the running and the queued, in order")
  func roomAndRemoveAll() {
    var tasks = ContinuedProcessingTasks()
    _ = tasks.addRunning(Self.entry("run"), now: .zero)
    tasks.addQueued(Self.entry("a"))
    tasks.addQueued(Self.entry("b"))
    #expect(tasks.nextToStart(limit: 1) == nil)
    #expect(tasks.contains("run") && tasks.contains("b"))
    let removed = tasks.removeAll()
    #expect(removed.running.map(\.identifier) == ["run"])
    #expect(removed.queued.map(\.identifier) == ["a", "b"])
    #expect(!tasks.contains("a") && tasks.queued.isEmpty && tasks.queuedCount == 0)
  }
}
