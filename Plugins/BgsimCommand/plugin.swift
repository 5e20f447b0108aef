import Foundation
import PackagePlugin

/// `swift package bgsim ARGUMENTS...`: runs the `bgsim` tool inside the user's own package
/// without installing it. SwiftPM builds the tool from this package; the plugin runs it in the
/// directory the command was typed in (so paths mean what they would to an installed `bgsim`),
/// passes every argument through unchanged, and ends with the tool's exit status, so a failed
/// expectation (1), an invalid scenario (2) or an unwritable output (74) fails the command.
@main struct BgsimCommand: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "bgsim")
    let process = Process()
    process.executableURL = tool.url
    process.arguments = arguments
    // The tool writes to the plugin's own standard output and error, which SwiftPM shows as is.
    try process.run()
    process.waitUntilExit()
    if process.terminationReason == .uncaughtSignal {
      Diagnostics.error("bgsim was stopped by signal \(process.terminationStatus)")
      exit(1)
    }
    // Diagnostics.error would add a second message to the tool's own; the status is enough.
    exit(process.terminationStatus)
  }
}
