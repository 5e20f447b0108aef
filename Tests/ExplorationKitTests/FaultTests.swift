import ExplorationKit
import Foundation
import SimKernel
import Testing

@Suite struct FaultTests {
  @Test func aFaultsIdentityIsItsKindAndTimeNotItsLabel() {
    let at = SimTime(.seconds(3))
    #expect(Fault.terminate(at: at, after: "after delegate.didComplete") == Fault.terminate(at: at))
    #expect(Fault.terminate(at: at) != Fault.forceQuit(at: at))
    #expect(Fault.terminate(at: at) != Fault.terminate(at: at + .nanoseconds(1)))
  }

  @Test func swiftSourceIsTheCallToPaste() {
    let fault = Fault.network(at: SimTime(.seconds(2)), .offline, lasting: .seconds(30))
    #expect(
      fault.swiftSource
        == ".network(at: SimTime(nanoseconds: 2000000000), .offline, lasting: .nanoseconds(30000000000))")
    #expect(Fault.terminate(at: .zero).swiftSource == ".terminate(at: SimTime(nanoseconds: 0))")
  }

  @Test func userReturnsAfterIsASetting() {
    let faults = FaultSet.all.userReturning(after: .minutes(5))
    #expect(faults.userReturnsAfter == .minutes(5))
    #expect(faults.contains(.forceQuit))
    #expect(FaultSet.all.userReturnsAfter == .minutes(1))
  }
}

@Suite struct ContentDigestTests {
  @Test func filesArePathsBelowTheFolderWithTheirDigests() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bgsim-digest-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("Documents/Episodes", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("one".utf8).write(to: folder.appendingPathComponent("b.mp3"))
    try Data("two".utf8).write(to: folder.appendingPathComponent("a.mp3"))
    let files = ContentDigest.files(under: root.appendingPathComponent("Documents"), prefix: "Documents")
    #expect(files.map(\.path) == ["Documents/Episodes/a.mp3", "Documents/Episodes/b.mp3"])
    #expect(files[0].digest != files[1].digest)
    #expect(files[1].digest == ContentDigest.ofFile(at: folder.appendingPathComponent("b.mp3")))
    // A large file: its size and both ends count.
    let big = folder.appendingPathComponent("big.bin")
    var bytes = Data(count: ContentDigest.wholeFileLimit + 10)
    try bytes.write(to: big)
    let before = ContentDigest.ofFile(at: big)
    bytes[bytes.count - 1] = 1
    try bytes.write(to: big)
    #expect(ContentDigest.ofFile(at: big) != before)
  }
}
