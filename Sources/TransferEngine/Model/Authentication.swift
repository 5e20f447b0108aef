import SimKernel

/// How a server asks for a credential (`URLProtectionSpace.authenticationMethod`).
///
/// HTTP Basic and Digest are task-level challenges; NTLM and Negotiate are session-level, which
/// URLSession hands to the session delegate's `urlSession(_:didReceive:completionHandler:)` when
/// it implements one, else to the task delegate [A] (behavior.md, "Authentication challenges").
public enum AuthenticationMethod: String, CaseIterable, Hashable, Sendable {
  /// HTTP Basic: user and password sent in the clear (task-level).
  case basic
  /// HTTP Digest: a hash of the password (task-level).
  case digest
  /// NTLM, Windows servers' scheme (session-level).
  case ntlm
  /// Negotiate (Kerberos or NTLM; session-level).
  case negotiate

  /// Asked of the session delegate first.
  public var isSessionLevel: Bool { self == .ntlm || self == .negotiate }
}

/// One protection space a resource offers (a `WWW-Authenticate` challenge), with the account
/// the server accepts in it.
public struct ProtectionSpace: Hashable, Sendable {
  /// The scheme the server challenges with in this space.
  public var method: AuthenticationMethod
  /// `URLProtectionSpace.realm`; may be empty.
  public var realm: String
  /// The user name the server accepts here.
  public var user: String
  /// The password the server accepts with `user`.
  public var password: String

  /// A protection space whose server accepts `user` and `password`.
  public init(method: AuthenticationMethod, realm: String = "", user: String, password: String) {
    self.method = method
    self.realm = realm
    self.user = user
    self.password = password
  }

  /// Whether `credential` is this space's account.
  public func accepts(_ credential: SimURLCredential) -> Bool {
    credential.user == user && credential.password == password
  }
}

/// `URLCredential(user:password:persistence:)`; the simulation keeps no credential storage, so
/// persistence is not modelled.
public struct SimURLCredential: Hashable, Sendable {
  /// The user name sent to the server.
  public var user: String
  /// The password sent with `user`.
  public var password: String
  /// A credential for `user`, to answer a challenge with `.useCredential`.
  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }
}

/// `URLAuthenticationChallenge` as the app sees it.
public struct SimAuthenticationChallenge: Hashable, Sendable {
  /// The server's host (`URLProtectionSpace.host`).
  public var host: String
  /// The scheme the server asks for (`URLProtectionSpace.authenticationMethod`).
  public var method: AuthenticationMethod
  /// `URLProtectionSpace.realm`; may be empty.
  public var realm: String
  /// Failed attempts of this task so far, across protection spaces [A].
  public var previousFailureCount: Int
  /// The status of the response that failed (401), when `previousFailureCount` > 0.
  public var failureResponseStatus: Int?

  /// A challenge from `host` in one protection space.
  public init(
    host: String, method: AuthenticationMethod, realm: String, previousFailureCount: Int,
    failureResponseStatus: Int? = nil
  ) {
    self.host = host
    self.method = method
    self.realm = realm
    self.previousFailureCount = previousFailureCount
    self.failureResponseStatus = failureResponseStatus
  }
}

/// `URLSession.AuthChallengeDisposition` with its credential.
public enum SimAuthChallengeDisposition: Hashable, Sendable {
  /// Send this credential: the transfer proceeds if the server accepts it, else the server
  /// challenges again.
  case useCredential(SimURLCredential)
  /// As if the delegate did not implement the method: no stored credential, so the request
  /// goes on without one and the server's 401 completes the task.
  case performDefaultHandling
  /// The task is cancelled (-999).
  case cancelAuthenticationChallenge
  /// The next protection space the server offers is tried; after the last, default handling.
  case rejectProtectionSpace

  /// The name the trace and the format use.
  public var name: String {
    switch self {
    case .useCredential: return "useCredential"
    case .performDefaultHandling: return "performDefaultHandling"
    case .cancelAuthenticationChallenge: return "cancelAuthenticationChallenge"
    case .rejectProtectionSpace: return "rejectProtectionSpace"
    }
  }
}

/// The daemon's side of authentication challenges; no source gives these numbers [S].
public struct ChallengePolicy: Hashable, Sendable {
  /// How long the daemon waits for the app's answer (the app not woken, the session not
  /// recreated) before failing the task with -1001 `timedOut`.
  public var answerTimeout: SimDuration
  /// Wrong credentials a task may present before the server's 401 completes it.
  public var maxFailures: Int

  /// The defaults: a minute for the app's answer, three wrong credentials.
  public init(answerTimeout: SimDuration = .seconds(60), maxFailures: Int = 3) {
    self.answerTimeout = answerTimeout
    self.maxFailures = maxFailures
  }
}
