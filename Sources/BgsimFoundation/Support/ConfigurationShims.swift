import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionConfiguration {
  /// A background configuration on every platform: `.background(withIdentifier:)` on Darwin; on
  /// Linux, where swift-corelibs-foundation has no background sessions, a default configuration
  /// with the identifier set that the bridge treats as background.
  public static func simulatedBackground(withIdentifier identifier: String) -> URLSessionConfiguration {
    #if canImport(Darwin)
      return .background(withIdentifier: identifier)
    #else
      let configuration = URLSessionConfiguration.default
      configuration.identifier = identifier
      LinuxConfigurationShims.update(configuration) { $0.isBackground = true }
      return configuration
    #endif
  }
}

#if !canImport(Darwin)
  /// The configuration properties swift-corelibs-foundation lacks, kept beside each configuration
  /// object (Linux has no associated objects). Entries die with their configuration.
  final class LinuxConfigurationShims: @unchecked Sendable {
    struct Values {
      var isBackground = false
      var sessionSendsLaunchEvents = true
      var allowsExpensiveNetworkAccess = true
      var allowsConstrainedNetworkAccess = true
      var waitsForConnectivity = false
    }
    private struct Entry {
      weak var owner: URLSessionConfiguration?
      var values: Values
    }
    private static let shared = LinuxConfigurationShims()
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Past this many entries the dead ones are dropped; then it is twice the live ones, so that
    /// many live configurations (a session each) cost a pass now and then, not one per update.
    private var pruneAt = 64

    static func values(of configuration: URLSessionConfiguration) -> Values {
      shared.lock.lock()
      defer { shared.lock.unlock() }
      let key = ObjectIdentifier(configuration)
      guard let entry = shared.entries[key], entry.owner === configuration else { return Values() }
      return entry.values
    }

    static func update(_ configuration: URLSessionConfiguration, _ change: (inout Values) -> Void) {
      shared.lock.lock()
      defer { shared.lock.unlock() }
      let key = ObjectIdentifier(configuration)
      var values = Values()
      if let entry = shared.entries[key], entry.owner === configuration { values = entry.values }
      change(&values)
      shared.entries[key] = Entry(owner: configuration, values: values)
      if shared.entries.count > shared.pruneAt {
        shared.entries = shared.entries.filter { $0.value.owner != nil }
        shared.pruneAt = max(64, 2 * shared.entries.count)
      }
    }
  }

  // The Darwin members swift-corelibs-foundation lacks, for code that imports BgsimFoundation
  // (test adapters, and library modules that depend on the bridge on Linux only).
  extension URLSessionConfiguration {
    /// Darwin: `sessionSendsLaunchEvents`.
    public var sessionSendsLaunchEvents: Bool {
      get { LinuxConfigurationShims.values(of: self).sessionSendsLaunchEvents }
      set { LinuxConfigurationShims.update(self) { $0.sessionSendsLaunchEvents = newValue } }
    }
    /// Darwin: `allowsExpensiveNetworkAccess`.
    public var allowsExpensiveNetworkAccess: Bool {
      get { LinuxConfigurationShims.values(of: self).allowsExpensiveNetworkAccess }
      set { LinuxConfigurationShims.update(self) { $0.allowsExpensiveNetworkAccess = newValue } }
    }
    /// Darwin: `allowsConstrainedNetworkAccess`.
    public var allowsConstrainedNetworkAccess: Bool {
      get { LinuxConfigurationShims.values(of: self).allowsConstrainedNetworkAccess }
      set { LinuxConfigurationShims.update(self) { $0.allowsConstrainedNetworkAccess = newValue } }
    }
    /// Darwin: `waitsForConnectivity`.
    public var waitsForConnectivity: Bool {
      get { LinuxConfigurationShims.values(of: self).waitsForConnectivity }
      set { LinuxConfigurationShims.update(self) { $0.waitsForConnectivity = newValue } }
    }

    /// Darwin: `URLSessionConfiguration.background(withIdentifier:)`, for code ported to Linux.
    public static func background(withIdentifier identifier: String) -> URLSessionConfiguration {
      simulatedBackground(withIdentifier: identifier)
    }
  }
#endif

extension URLSessionConfiguration {
  /// True for a configuration made by `simulatedBackground(withIdentifier:)` (or Darwin's
  /// `background(withIdentifier:)`).
  var isSimulatedBackground: Bool {
    #if canImport(Darwin)
      // Darwin's background configurations are the only ones with an identifier.
      return identifier != nil
    #else
      return LinuxConfigurationShims.values(of: self).isBackground
    #endif
  }

  /// A copy that keeps the Linux shim values (Foundation's `copy()` does not know them).
  func bridgeCopy() -> URLSessionConfiguration {
    guard let copy = self.copy() as? URLSessionConfiguration else { return self }
    #if !canImport(Darwin)
      let values = LinuxConfigurationShims.values(of: self)
      LinuxConfigurationShims.update(copy) { $0 = values }
    #endif
    return copy
  }
}
