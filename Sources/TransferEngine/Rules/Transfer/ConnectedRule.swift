import SimKernel

/// Rule: an attempt's response headers arrive, one round trip after it started or was
/// redirected (behavior.md, "Redirects", "Server faults", "Authentication challenges").
///
/// In order: a drop fault on the URL cuts the connection (the interruption's rule); a protected
/// resource challenges (`ResponseAuthenticationRule`); a redirect is followed, after asking the
/// app when a default session's app runs (the task stays connecting until the answer,
/// `RedirectDecidedRule`), and fails the task with -1007 past `maxRedirects` in a row; any
/// other response is recorded and its body put on a link (`Engine.respond`).
enum ConnectedRule {
  /// Redirects URLSession follows in a row before failing the task with
  /// `httpTooManyRedirects` (-1007): "the threshold for number of allowable redirects has been
  /// exceeded (currently 16)", developer.apple.com/documentation/foundation/urlerror/httptoomanyredirects.
  static let maxRedirects = 16

  /// The response to `task`'s current request arrived; `skipsAuthentication` is the engine fault
  /// that lets a protected response through (for the invariant checker's own tests).
  static func apply(
    _ task: SimURLSessionTask, engine: Engine, skipsAuthentication: Bool, into effects: inout EffectBuffer
  ) {
    let url = task.currentURL
    if engine.links.takeDrop(for: url) {
      InterruptRule.apply(task, reason: "connectionDropped", retryNow: false, engine: engine, into: &effects)
      engine.rescheduleLinks(after: &effects)
      return
    }
    let authentication = ResponseAuthenticationRule.apply(
      task, engine: engine, skipsAuthentication: skipsAuthentication, into: &effects)
    if authentication == .takenOver { return }
    let resource = engine.links.server.resource(url)
    let status = engine.links.server.status(for: url, resource: resource, at: engine.now)
    guard let target = resource?.redirectTo, status < 400 else {
      engine.respond(task, status: status, resource: resource, into: &effects)
      return
    }
    if task.redirectsInARow >= maxRedirects {
      effects.append(.failHoldingConnection(uid: task.uid, code: .httpTooManyRedirects))
      engine.rescheduleLinks(after: &effects)
      return
    }
    if task.session.configuration.kind == .default, task.session.appSession != nil,
      engine.lifecycle.state.isRunning
    {
      // The app decides, from the delivery step (the one place app code runs): the task stays
      // connecting until `RedirectDecidedRule` hears the answer.
      engine.queueDelegateEvent(
        .willPerformHTTPRedirection(task, to: target, generation: task.machine.generation), for: task.session,
        into: &effects)
      return
    }
    followRedirect(task, to: target, engine: engine, into: &effects)
  }

  /// Follows a redirect: the next request goes to `target` after another round trip.
  static func followRedirect(
    _ task: SimURLSessionTask, to target: SimURL, engine: Engine, into effects: inout EffectBuffer
  ) {
    effects.append(
      .trace(
        .taskRedirect,
        [
          TraceField("task", .string(task.name)), TraceField("from", .string(task.currentURL.string)),
          TraceField("to", .string(target.string)),
        ]))
    engine.tasks[task].redirected(to: target)
    effects.append(
      .schedule(
        .connected(uid: task.uid, generation: task.machine.generation),
        at: engine.now + engine.links.network.latency * 2))
  }
}
