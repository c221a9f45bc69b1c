public import AuthCore
import Synchronization

/// The cookie jars of a container's accounts, one per account, created on first use.
public final class CookieJars: Sendable {
    private let jars = Mutex<[AccountKey: CookieJar]>([:])
    /// The configuration of new jars.
    public let configuration: CookieJarConfiguration

    /// Creates an empty registry.
    public init(configuration: CookieJarConfiguration = .init()) { self.configuration = configuration }

    /// The jar of `account`.
    public func jar(for account: AccountKey) -> CookieJar {
        jars.withLock { jars in
            if let jar = jars[account] { return jar }
            let jar = CookieJar(configuration: configuration)
            jars[account] = jar
            return jar
        }
    }
}

/// The container's ``CookieJars``.
public enum CookieJarsKey: AuthContainerKey {
    /// A registry with the default configuration.
    public static func makeDefault(_ container: AuthContainer) -> CookieJars { CookieJars() }
}

extension AuthContainer {
    /// Adds a ``CookieMiddleware`` to every client: each account has its own jar, saved through
    /// the container's credential store after every change.
    ///
    /// ```swift
    /// container.useCookies()
    /// let jar = try await container.restoreCookieJar(for: alice)
    /// ```
    public func useCookies(configuration: CookieJarConfiguration = .init()) {
        override(CookieJarsKey.self, with: CookieJars(configuration: configuration))
        var plugins = self[PluginMiddlewaresKey.self]
        plugins.inner.append { container, account in
            CookieMiddleware(jar: container[CookieJarsKey.self].jar(for: account), store: CookieJarStore(store: container[CredentialStoreKey.self], account: account))
        }
        override(PluginMiddlewaresKey.self, with: plugins)
    }

    /// The jar of `account`, filled from the store with what a previous run saved.
    public func restoreCookieJar(for account: AccountKey) async throws -> CookieJar {
        let jar = self[CookieJarsKey.self].jar(for: account)
        try await CookieJarStore(store: self[CredentialStoreKey.self], account: account).load(into: jar)
        return jar
    }
}
