import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// On Linux, the main queue's wake-up counter: an `eventfd` libdispatch writes when the main
/// queue gets work, and that CoreFoundation's run loop waits on to serve `DispatchQueue.main`.
/// Looking at it (one `poll`, which takes nothing from it) tells whether a pass of the main run
/// loop has any main-queue block to run; the pass itself costs two `epoll_ctl`, a `ppoll` and
/// the run loop's bookkeeping, and after each delegate call it was about a fifth of the
/// simulation thread's time in `bgsim bench bridge`, nearly always finding nothing.
///
/// The counter comes from libdispatch's entry point for CoreFoundation, not public API, so it is
/// looked up at run time: where it is missing, `shared` is nil and the bridge runs a pass after
/// every call as before. Darwin (a Mach port, not a descriptor) always runs the pass.
final class MainQueueWakeUp: @unchecked Sendable {
  #if canImport(Glibc) || canImport(Musl)
    private typealias HandleEntry = @convention(c) () -> Int32

    private let counter: Int32

    private init(counter: Int32) { self.counter = counter }

    /// Nil where the entry point is not found or gives no descriptor.
    static let shared: MainQueueWakeUp? = {
      guard let image = dlopen(nil, RTLD_NOW),
        let handle = dlsym(image, "_dispatch_get_main_queue_handle_4CF")
      else { return nil }
      let counter = unsafeBitCast(handle, to: HandleEntry.self)()
      return counter >= 0 ? MainQueueWakeUp(counter: counter) : nil
    }()

    /// True when the main queue was woken since the run loop last served it (a block is
    /// queued), or when the counter cannot be read: a pass of the run loop is then due.
    var isPending: Bool {
      var entry = pollfd(fd: counter, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, 0)
      return ready != 0
    }
  #else
    static let shared: MainQueueWakeUp? = nil
    var isPending: Bool { true }
  #endif
}
