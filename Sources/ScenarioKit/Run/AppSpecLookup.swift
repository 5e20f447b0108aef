import SimKernel
import TransferEngine

/// An app's session configurations and extensions by name, built once per run from its
/// `AppSpec`. The scripted app asks at every launch and whenever it makes a session; a scan of
/// the spec's lists per question cost the product of sessions and extensions. Identifiers and
/// names are told apart by their bytes (`WrittenKey`), as the loader's duplicate checks tell them.
struct AppSpecLookup {
  /// The configuration the app uses for each identifier: its own first entry, else the first
  /// extension's whose events it is handed (the app makes that session only for them).
  private var configurations: [WrittenKey: SessionConfiguration] = [:]
  /// The identifiers of the extensions' sessions.
  private var extensionSessions: Set<WrittenKey> = []
  /// The first extension of each name.
  private var extensions: [WrittenKey: ExtensionSpec] = [:]

  init(_ spec: AppSpec) {
    for configuration in spec.sessions where configurations[WrittenKey(configuration.identifier)] == nil {
      configurations[WrittenKey(configuration.identifier)] = configuration
    }
    for spec in spec.extensions {
      if extensions[WrittenKey(spec.name)] == nil { extensions[WrittenKey(spec.name)] = spec }
      for configuration in spec.sessions {
        let identifier = WrittenKey(configuration.identifier)
        extensionSessions.insert(identifier)
        if configurations[identifier] == nil { configurations[identifier] = configuration }
      }
    }
  }

  /// The configuration the app uses for `identifier`.
  func configuration(for identifier: String) -> SessionConfiguration? {
    configurations[WrittenKey(identifier)]
  }

  /// Whether `identifier` is an extension's session.
  func isExtensionSession(_ identifier: String) -> Bool { extensionSessions.contains(WrittenKey(identifier)) }

  /// The extension named `name`.
  func extensionSpec(named name: String) -> ExtensionSpec? { extensions[WrittenKey(name)] }
}
