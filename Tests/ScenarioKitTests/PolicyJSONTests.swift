import ScenarioKit
import SimKernel
import Testing
import TransferEngine

/// Policy as JSON: printing, reading back, and setting one knob by its dotted name.
@Suite struct PolicyJSONTests {
  @Test func defaultsRoundTrip() throws {
    let text = PolicyJSON.render(.defaults)
    #expect(try ScenarioLoader.loadPolicy(data: Array(text.utf8), file: "p.json") == .defaults)
  }

  @Test func everyKnobRoundTrips() throws {
    var policy = Policy.defaults
    policy.rateLimiter.maxDelay = .hours(2)
    policy.rateLimiter.growth = 1.5
    policy.discretionary.requires = []
    policy.discretionary.largeTransferSize = 7_000_001
    policy.discretionary.largeTransferRequires = [.charging]
    policy.discretionary.minimumBatteryLevel = 0.25
    policy.maxConnectionsPerHost = 1
    policy.retry.backoff = .milliseconds(1_500)
    policy.delayedRequest.wakesApp = false
    policy.resumableUploads = false
    policy.extensionEndsAfter = .seconds(12)
    let text = PolicyJSON.render(policy)
    #expect(try ScenarioLoader.loadPolicy(data: Array(text.utf8), file: "p.json") == policy)
  }

  @Test func knobNamesFollowTheFormat() {
    #expect(
      PolicyJSON.knobNames == [
        "rateLimiter.initialDelay", "rateLimiter.firstDelay", "rateLimiter.growth", "rateLimiter.maxDelay",
        "rateLimiter.resetOnForeground", "rateLimiter.idleResetFactor", "discretionary.requires",
        "discretionary.largeTransferSize", "discretionary.largeTransferRequires",
        "discretionary.minimumBatteryLevel", "discretionary.avoidLowPowerMode", "backgroundRunTime",
        "backgroundTaskLimit", "extensionEndsAfter",
        "completionHandlerTimeout",
        "maxConnectionsPerHost",
        "retry.backoff", "retry.maxBackoff", "reboot.keepsBackgroundTasks", "reboot.unlockAfter",
        "delayedRequest.wakesApp", "resumableUploads", "resumableUploadDraft",
        "continuedProcessing.maxRunning", "continuedProcessing.progressWindow",
        "challenge.answerTimeout", "challenge.maxFailures",
      ])
  }

  @Test func settingKnobs() throws {
    var policy = Policy.defaults
    try PolicyJSON.apply("rateLimiter.growth=3", to: &policy)
    try PolicyJSON.apply("rateLimiter.maxDelay=2h", to: &policy)
    try PolicyJSON.apply("rateLimiter.firstDelay=\"90s\"", to: &policy)
    try PolicyJSON.apply("rateLimiter.resetOnForeground=false", to: &policy)
    try PolicyJSON.apply("discretionary.requires=[\"charging\"]", to: &policy)
    try PolicyJSON.apply("maxConnectionsPerHost=8", to: &policy)
    try PolicyJSON.apply("retry.backoff=0.5", to: &policy)
    #expect(policy.rateLimiter.growth == 3)
    #expect(policy.rateLimiter.maxDelay == .hours(2))
    #expect(policy.rateLimiter.firstDelay == .seconds(90))
    #expect(!policy.rateLimiter.resetOnForeground)
    #expect(policy.discretionary.requires == [.charging])
    #expect(policy.maxConnectionsPerHost == 8)
    #expect(policy.retry.backoff == .milliseconds(500))
    try PolicyJSON.apply("rateLimiter.maxDelay=null", to: &policy)
    #expect(policy.rateLimiter.maxDelay == nil)
    #expect(PolicyJSON.value(of: "rateLimiter.growth", in: policy) == "3.0")
  }

  @Test(arguments: [
    ("rateLimiter.groth=3", "unknown policy knob 'rateLimiter.groth'; did you mean 'rateLimiter.growth'?"),
    ("rateLimiter.growth", "expected NAME=VALUE such as rateLimiter.growth=3, found 'rateLimiter.growth'"),
    (
      "rateLimiter.growth=fast",
      "rateLimiter.growth: expected a factor from 0 to 1000 like 2.0, found the string \"fast\""
    ),
    ("backgroundRunTime=-5s", "backgroundRunTime: negative duration \"-5s\"; a duration must be 0 or more"),
    (
      "maxConnectionsPerHost=0",
      "maxConnectionsPerHost: 0 is out of range; expected a number of connections from 1 to 1000"
    ),
  ])
  func invalidSettings(assignment: String, message: String) {
    var policy = Policy.defaults
    #expect(throws: PolicySettingError(message)) { try PolicyJSON.apply(assignment, to: &policy) }
    #expect(policy == .defaults)
  }
}
