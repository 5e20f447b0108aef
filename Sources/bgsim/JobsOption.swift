import Foundation

extension ParsedArguments {
  /// `--jobs N`: how many simulations run at a time, from 1 to 1024; by default one per core.
  /// The commands that take it give the same bytes whatever N is.
  func jobs(_ usage: (String) -> CommandLineError) throws(CommandLineError) -> Int {
    guard let text = options["--jobs"] else { return ProcessInfo.processInfo.activeProcessorCount }
    guard let n = Int(text), (1...1024).contains(n) else {
      throw usage("--jobs expects a number of workers from 1 to 1024, found '\(text)'")
    }
    return n
  }
}
