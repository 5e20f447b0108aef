import TransferEngine

/// An app's session configurations and extensions by name, built once per run from its
/// `AppSpec`. The scripted app asks at every launch and whenever it makes a session; a scan of
/// the spec's lists per question cost the product of sessions and extensions.
struct AppSpecLookup {
  /// The configuration the app uses for each identifier: its own first entry, else the first
  /// extension's whose events it is handed (the app makes that session only for them).
  private var configurations: [String: SessionConfiguration] = [:]
  /// The identifiers of the extensions' sessions.
  private var extensionSessions: Set<String> = []
  /// The first extension of each name.
  private var extensions: [String: ExtensionSpec] = [:]

  init(_ spec: AppSpec) {
    for configuration in spec.sessions where configurations[configuration.identifier] == nil {
      configurations[configuration.identifier] = configuration
    }
    for spec in spec.extensions {
      if extensions[spec.name] == nil { extensions[spec.name] = spec }
      for configuration in spec.sessions {
        extensionSessions.insert(configuration.identifier)
        if configurations[configuration.identifier] == nil {
          configurations[configuration.identifier] = configuration
        }
      }
    }
  }

  /// The configuration the app uses for `identifier`.
  func configuration(for identifier: String) -> SessionConfiguration? { configurations[identifier] }

  /// Whether `identifier` is an extension's session.
  func isExtensionSession(_ identifier: String) -> Bool { extensionSessions.contains(identifier) }

  /// The extension named `name`.
  func extensionSpec(named name: String) -> ExtensionSpec? { extensions[name] }
}
