import Foundation
import SimKernel
import Testing

@testable import TransferEngine

/// The user opening and leaving an extension, and the system ending it, alone: (state, input)
/// -> effects, with no `Simulation`.
@Suite("Rules: app extensions open, close and end")
struct ExtensionRuleTests {
  static func name(_ name: String) -> [TraceField] { [TraceField("name", .string(name))] }

  @Test("opening an extension starts its process once; opening it again calls off its end")
  func open() {
    let fixture = EngineFixture()
    var effects = EffectBuffer()
    OpenExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    #expect(effects.effects == [.trace(.extensionLaunch, Self.name("share"))])
    #expect(fixture.engine.extensions.isRunning("share"))

    effects.removeAll()
    OpenExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
  }

  @Test("leaving an extension schedules its end; leaving twice, or one not running, does nothing")
  func close() {
    let fixture = EngineFixture()
    var effects = EffectBuffer()
    CloseExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)

    OpenExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    effects.removeAll()
    CloseExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    let endsAt = SimTime.zero + Policy.defaults.extensionEndsAfter
    #expect(
      effects.effects == [
        .trace(.extensionClose, Self.name("share")), .schedule(.endExtension(run: 1), at: endsAt),
      ])

    effects.removeAll()
    CloseExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    #expect(effects.isEmpty)
  }

  /// (the user comes back before the end) -> the end ends the process.
  @Test(
    "the system's end ends the run the user left, not one the user came back to", arguments: [false, true])
  func end(cameBack: Bool) {
    let fixture = EngineFixture()
    var effects = EffectBuffer()
    OpenExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    CloseExtensionRule.apply("share", engine: fixture.engine, into: &effects)
    if cameBack { OpenExtensionRule.apply("share", engine: fixture.engine, into: &effects) }
    effects.removeAll()
    ExtensionEndRule.apply(run: 1, engine: fixture.engine, into: &effects)
    if cameBack {
      #expect(effects.isEmpty)
      #expect(fixture.engine.extensions.isRunning("share"))
    } else {
      #expect(
        effects.effects == [
          .trace(.extensionTerminate, Self.name("share") + [TraceField("reason", .string("system"))]),
          .rescheduleLinks, .requestWakeCheck,
        ])
      #expect(!fixture.engine.extensions.isRunning("share"))
    }
  }

  @Test(
    "an ended extension's sessions detach and only its tasks that need the process are disconnected")
  func endedSessions() {
    let fixture = EngineFixture()
    let app = fixture.session("app.bg")
    let shared = fixture.session("share.bg", owner: .appExtension("share"))
    let other = fixture.session("other.bg", owner: .appExtension("other"))
    fixture.task("a", .data, in: app)
    let download = fixture.task("b", .download, in: shared)
    let data = fixture.task("c", .data, in: shared)
    let fromData = fixture.task("d", .upload(fromFile: false, size: 10), in: shared)
    fixture.task("e", .upload(fromFile: true, size: 10), in: shared)
    fixture.task("f", .data, in: other)
    _ = fixture.engine.tasks[download].machine.end(.finished)

    var effects = EffectBuffer()
    ExtensionEndRule.ended("share", reason: "reboot", engine: fixture.engine, into: &effects)
    #expect(
      effects.effects == [
        .trace(.extensionTerminate, Self.name("share") + [TraceField("reason", .string("reboot"))]),
        .detachFromApp(sessionIndex: shared.index), .disconnect(uid: data.uid),
        .disconnect(uid: fromData.uid),
        .rescheduleLinks, .requestWakeCheck,
      ])
  }
}
