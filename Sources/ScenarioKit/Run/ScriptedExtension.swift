import SimKernel
import TransferEngine

/// An app extension as a scenario scripts it (`app.extensions`): it makes its background
/// sessions on first use in each of its runs and starts the timeline's `download` and `upload`
/// entries that name it. Its sessions' events go to the containing app, so as a delegate it
/// does nothing; the engine never calls it (behavior.md, "App extensions").
final class ScriptedExtension: SimURLSessionDelegate {
  let spec: ExtensionSpec
  unowned let store: ScriptedAppStore
  /// Live session objects by identifier; the engine invalidates them when the extension ends.
  /// By identifier, told apart by its bytes (`WrittenKey`).
  private var sessions: [WrittenKey: SimURLSession] = [:]
  /// The extension's own configuration of each identifier, its first entry's: looked up, not
  /// scanned, as an extension may declare thousands.
  private var configurations: [WrittenKey: SessionConfiguration] = [:]

  init(spec: ExtensionSpec, store: ScriptedAppStore) {
    self.spec = spec
    self.store = store
    for configuration in spec.sessions where configurations[WrittenKey(configuration.identifier)] == nil {
      configurations[WrittenKey(configuration.identifier)] = configuration
    }
  }

  /// Performs a timeline `download` or `upload` (the loader allows no other action here), `count`
  /// times when the entry numbers its tasks.
  func perform(_ action: AppAction, path: String) {
    let numbering = action.numbering ?? (count: 1, firstNumber: 1)
    for i in 0..<numbering.count {
      let n = action.numbering == nil ? nil : numbering.firstNumber + i
      switch action {
      case .download(let request):
        create(request, path: path, n: n) { session, url, name throws(SimAPIMisuse) in
          try session.downloadTask(with: url, name: name)
        }
      case .upload(let request, let from, let size):
        create(request, path: path, n: n) { session, url, name throws(SimAPIMisuse) in
          from == .file
            ? try session.uploadTask(with: url, fromFileOfSize: size, name: name)
            : try session.uploadTask(with: url, fromDataOfSize: size, name: name)
        }
      default:
        store.fail("\(path): an extension can only download or upload, not '\(action.name)'")
        return
      }
    }
  }

  private func create(
    _ request: TaskRequest, path: String, n: Int?,
    make: (SimURLSession, String, String) throws(SimAPIMisuse) -> SimURLSessionTask
  ) {
    guard store.runError == nil, let session = session(request.session, path: path) else { return }
    let name = ScriptedAppStore.substitute(request.name, n, nil)
    do {
      let task = try make(session, ScriptedAppStore.substitute(request.url, n, nil), name)
      store.start(task, request, n: n, trigger: nil)
    } catch { store.fail("\(path): \(error.message)") }
  }

  /// The live session for `identifier` in this run of the extension, made on first use.
  private func session(_ identifier: String, path: String) -> SimURLSession? {
    if let live = sessions[WrittenKey(identifier)], !live.isInvalidated { return live }
    guard let configuration = configurations[WrittenKey(identifier)] else {
      store.fail("\(path): extension '\(spec.name)' has no session '\(identifier)'")
      return nil
    }
    do {
      let made = try store.simulation.makeSession(
        inExtension: spec.name, configuration: configuration, delegate: self)
      sessions[WrittenKey(identifier)] = made
      return made
    } catch {
      store.fail("\(path): \(error.message)")
      return nil
    }
  }
}
