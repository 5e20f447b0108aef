import SimKernel
import TransferEngine

extension ScenarioGenerator {
  /// A device iOS version (from 16 to the newest), its knob defaults with an explicit override
  /// now and then, and the draft each resumable upload target speaks. Draws come from their own
  /// stream, so the rest of a seed's scenario is what it was before versions were generated.
  mutating func addIOSVersion(device: inout DeviceModel, policy: inout Policy, server: inout ServerModel) {
    var draws = SeededGenerator(seed: seed ^ 0x1057_0E25_0000_0000)
    guard draws.nextUnit() < 0.4 else { return }
    let versions = ["16", "17", "18", "18.1", "26"].compactMap(IOSVersion.init)
    let version = draws.choice(versions)
    device.iosVersion = version
    if draws.nextUnit() < 0.85 {
      policy.resumableUploads = version.resumableUploadDraft != nil
      policy.resumableUploadDraft = version.resumableUploadDraft ?? .v3
    }
    for i in server.resources.indices where server.resources[i].resumableUploads {
      let drafts: [ResumableUploadDraft?] = [nil, .v3, .v5, .v6]
      server.resources[i].resumableUploadDraft = draws.choice(drafts)
    }
  }
}
