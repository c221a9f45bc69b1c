public import HTTPTypes
public import Logging

/// The transport requests go out through. AuthHTTPClient registers one with
/// `container.useHTTPClient(_:)`; the default throws for every request.
public enum TransportKey: AuthContainerKey {
    /// A transport that refuses to send, saying what to register.
    public static func makeDefault(_ container: AuthContainer) -> any Transport {
        ClosureTransport { _ in
            throw AuthError.transport("no transport is registered: call container.useHTTPClient(…) from AuthHTTPClient, or override TransportKey")
        }
    }
}

/// Where credentials are kept; an ``InMemoryCredentialStore`` by default.
public enum CredentialStoreKey: AuthContainerKey {
    /// A new in-memory store.
    public static func makeDefault(_ container: AuthContainer) -> any CredentialStore { InMemoryCredentialStore() }
}

/// The cipher that seals stored credentials; none by default.
public enum CredentialCipherKey: AuthContainerKey {
    /// No cipher.
    public static func makeDefault(_ container: AuthContainer) -> (any CredentialCipher)? { nil }
}

/// Upgrades old stored records; none by default (AuthMigration provides one).
public enum EnvelopeUpgraderKey: AuthContainerKey {
    /// No upgrader.
    public static func makeDefault(_ container: AuthContainer) -> (any EnvelopeUpgrading)? { nil }
}

/// The clock; the system clock by default.
public enum ClockKey: AuthContainerKey {
    /// The system clock.
    public static func makeDefault(_ container: AuthContainer) -> any AuthClock { SystemClock() }
}

/// The logger; one that discards everything by default (libraries do not configure logging).
public enum LoggerKey: AuthContainerKey {
    /// A logger with no output.
    public static func makeDefault(_ container: AuthContainer) -> Logger {
        Logger(label: "AuthKit", factory: { _ in SwiftLogNoOpLogHandler() })
    }
}

/// The event broadcaster every client of the container reports to.
public enum AuthEventsKey: AuthContainerKey {
    /// A new broadcaster.
    public static func makeDefault(_ container: AuthContainer) -> AuthEvents { AuthEvents() }
}

/// Renewal limits and leeway.
public enum RenewalPolicyKey: AuthContainerKey {
    /// The default policy.
    public static func makeDefault(_ container: AuthContainer) -> RenewalPolicy { RenewalPolicy() }
}

/// Retry limits and backoff.
public enum RetryPolicyKey: AuthContainerKey {
    /// The default policy.
    public static func makeDefault(_ container: AuthContainer) -> RetryPolicy { RetryPolicy() }
}

/// A time limit per transport attempt, enforced by ``TimeoutMiddleware``; none by default
/// (transports have their own, such as AuthHTTPClient's 30 seconds for a response's head, which
/// the middleware's limit replaces).
public enum RequestTimeoutKey: AuthContainerKey {
    /// No limit.
    public static func makeDefault(_ container: AuthContainer) -> Duration? { nil }
}

/// Header fields added to every request, such as a `User-Agent`. A field under a secret name
/// (``SecretFields/standard`` or `container.markSecret(_:)`) goes only to the origins of the
/// account client's strategy, and never through a public client (see ``HeadersMiddleware``).
public enum DefaultHeadersKey: AuthContainerKey {
    /// None.
    public static func makeDefault(_ container: AuthContainer) -> HTTPFields { [:] }
}

/// Header and query item names every client of the container treats as secret, besides
/// ``SecretFields/standard`` and what each credential marks: its logging redacts them and its
/// redirects drop them on a hop to another origin. Add to it with `container.markSecret(_:)`.
public enum SecretFieldsKey: AuthContainerKey {
    /// None beyond the standard names.
    public static func makeDefault(_ container: AuthContainer) -> SecretFields { SecretFields() }
}

/// The vault built from the store, cipher, upgrader and clock entries.
public enum CredentialVaultKey: AuthContainerKey {
    /// A vault over the container's store.
    public static func makeDefault(_ container: AuthContainer) -> CredentialVault {
        CredentialVault(store: container[CredentialStoreKey.self], cipher: container[CredentialCipherKey.self], upgrader: container[EnvelopeUpgraderKey.self], clock: container[ClockKey.self])
    }
}

/// The renewal coordinator every client of the container shares.
public enum RenewalCoordinatorKey: AuthContainerKey {
    /// A coordinator over the container's vault, policy, clock, events and logger.
    public static func makeDefault(_ container: AuthContainer) -> RenewalCoordinator {
        RenewalCoordinator(vault: container[CredentialVaultKey.self], policy: container[RenewalPolicyKey.self], clock: container[ClockKey.self], events: container[AuthEventsKey.self], logger: container[LoggerKey.self])
    }
}

/// Middlewares that plug-ins add to every client, per account.
///
/// `outer` ones run before redirects are followed (a response cache); `inner` ones run after
/// authentication, just before the transport, once per hop and attempt (cookies, signing).
public struct PluginMiddlewares: Sendable {
    /// Builds a middleware for the client described by the context.
    public typealias Factory = @Sendable (PluginContext) -> any Middleware
    /// Outermost middlewares, in order.
    public var outer: [Factory] = []
    /// Innermost middlewares, in order.
    public var inner: [Factory] = []
    /// None.
    public init() {}
}

/// What a plug-in middleware factory knows about the client it builds a middleware for.
public struct PluginContext: Sendable, CustomReflectable {
    /// The container building the client.
    public let container: AuthContainer
    /// The account the client acts as.
    public let account: AccountKey
    /// The origins the client's credential may go to (its strategy's hosts): the default
    /// ``CredentialScope`` of a plug-in that puts a secret of its own on requests.
    public let allowedHosts: AllowedHosts

    /// Creates a context, for calling a ``PluginMiddlewares/Factory`` by hand (in a test, say).
    public init(container: AuthContainer, account: AccountKey, allowedHosts: AllowedHosts) {
        self.container = container
        self.account = account
        self.allowedHosts = allowedHosts
    }

    /// The account only: the container holds values (default headers) that may be secrets.
    public var customMirror: Mirror {
        Mirror(self, children: ["account": account.description], displayStyle: .struct)
    }

    /// The scope of a secret that belongs to this client's account: its hosts, its account,
    /// the container's events.
    public var credentialScope: CredentialScope {
        CredentialScope(allowedHosts: allowedHosts, account: account, events: container[AuthEventsKey.self])
    }
}

/// The plug-in middlewares of ``PluginMiddlewares``.
public enum PluginMiddlewaresKey: AuthContainerKey {
    /// None.
    public static func makeDefault(_ container: AuthContainer) -> PluginMiddlewares { PluginMiddlewares() }
}
