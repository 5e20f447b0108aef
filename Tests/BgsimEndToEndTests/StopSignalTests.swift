import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// bgsim stops on SIGTERM even when the process that started it had the signal blocked: a
/// child inherits its parent thread's signal mask, and a test runner's threads block signals.
@Suite struct StopSignalTests {
  @Test func aTerminateSignalStopsALongFuzzStartedWithTheSignalBlocked() throws {
    let sandbox = try BgsimSandbox()
    defer { sandbox.remove() }
    let process = Process()
    process.executableURL = try BgsimSandbox.executable()
    process.arguments = ["fuzz", "--seeds", "1-1000000000", "--jobs", "1"]
    process.currentDirectoryURL = sandbox.directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    var blocked = sigset_t()
    var previous = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    let started = Result { try process.run() }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    try started.get()
    usleep(300_000)
    process.terminate()
    var waited = 0
    while process.isRunning && waited < 200 {
      usleep(100_000)
      waited += 1
    }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      Issue.record("bgsim kept running 20 s after SIGTERM")
      return
    }
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGTERM)
  }
}
