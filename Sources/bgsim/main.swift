import Foundation

/// The `bgsim` command-line tool: argument handling and printing only; it never simulates.
exit(BgsimCommandLine.main(Array(CommandLine.arguments.dropFirst())))
