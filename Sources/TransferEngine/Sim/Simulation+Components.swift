import SimKernel

/// The engine's components as the interpreter reaches them: each is `Engine`'s, and these
/// accessors only lend it (no copy: `_read` and `_modify` yield the stored value in place).
/// Code still written as `extension Simulation` reaches components through here; a rule moved
/// into its room takes the `Engine` and does not need them.
extension Simulation {
  var serverModel: ServerModel { engine.serverModel }
  var scheduler: Scheduler<EngineEvent> {
    _read { yield engine.scheduler }
    _modify { yield &engine.scheduler }
  }
  var links: Links {
    _read { yield engine.links }
    _modify { yield &engine.links }
  }
  var daemon: Daemon {
    _read { yield engine.daemon }
    _modify { yield &engine.daemon }
  }
  var lifecycle: AppLifecycle {
    _read { yield engine.lifecycle }
    _modify { yield &engine.lifecycle }
  }
  var rateLimiter: RateLimiter {
    _read { yield engine.rateLimiter }
    _modify { yield &engine.rateLimiter }
  }
  var wakes: WakeContract {
    _read { yield engine.wakes }
    _modify { yield &engine.wakes }
  }
  var assertions: BackgroundAssertions {
    _read { yield engine.assertions }
    _modify { yield &engine.assertions }
  }
  var continued: ContinuedProcessingTasks {
    _read { yield engine.continued }
    _modify { yield &engine.continued }
  }
  var appBusy: AppBusyTime {
    _read { yield engine.appBusy }
    _modify { yield &engine.appBusy }
  }
  var extensions: ExtensionProcesses {
    _read { yield engine.extensions }
    _modify { yield &engine.extensions }
  }
  var conditions: ConditionStreams {
    _read { yield engine.conditions }
    _modify { yield &engine.conditions }
  }
}
