public import AuthCore
public import Foundation

extension AuthContainer {
    /// Signs every request of the account clients this container builds from now on with
    /// `signer`, through a ``SigningMiddleware`` registered as an inner plug-in middleware.
    ///
    /// Inner plug-ins run after authentication and just before the transport, so the signature
    /// covers the credential that is actually sent, and every retry, renewal retry and redirect
    /// hop is signed again with a fresh time (and nonce). Clients built before this call, and
    /// ``AuthContainer/makePublicClient()`` clients, are not signed.
    ///
    /// ```swift
    /// let container = AuthContainer()
    /// container.useHTTPClient(transport)
    /// container.useRequestSigner(HMACRequestSigner(keyID: "client-1", key: key))
    /// let client = container.makeClient(for: account, strategy: strategy)
    /// ```
    /// - Parameters:
    ///   - signer: Signs each request.
    ///   - now: The signing clock; by default the container's ``ClockKey`` clock.
    public func useRequestSigner(_ signer: any RequestSigner, now: (@Sendable () -> Date)? = nil) {
        var plugins = self[PluginMiddlewaresKey.self]
        plugins.inner.append { container, _ in
            let clock = container[ClockKey.self]
            return SigningMiddleware(signer: signer, now: now ?? { clock.now() })
        }
        override(PluginMiddlewaresKey.self, with: plugins)
    }
}
