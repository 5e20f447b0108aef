import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A parent may pass on the signals it blocked (a test runner's worker thread starting bgsim
/// with `Process` does): unblock the ones that stop a program, so `timeout`, Ctrl-C and a CI
/// job's cancellation stop a long `fuzz` or `sweep` instead of leaving it running.
private func unblockStopSignals() {
  var signals = sigset_t()
  sigemptyset(&signals)
  for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&signals, signal) }
  sigprocmask(SIG_UNBLOCK, &signals, nil)
}

/// The `bgsim` command-line tool: argument handling and printing only; it never simulates.
unblockStopSignals()
exit(BgsimCommandLine.main(Array(CommandLine.arguments.dropFirst())))
