// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension AuthContainer {
    /// Signs the requests of the account clients this container builds from now on with
    /// `signer`, through a ``SigningMiddleware`` registered in the `signing` phase
    /// (``/AuthCore/MiddlewarePhase``).
    ///
    /// That phase runs after authentication, cookies and DPoP, and just before the transport, so the signature
    /// covers the credential that is actually sent, and every retry, renewal retry and redirect
    /// hop is signed again with a fresh time (and nonce). Only requests to `allowedHosts` are
    /// signed; by default those are the hosts of each client's strategy, the origins its
    /// credential goes to. Clients built before this call, and
    /// ``/AuthCore/AuthContainer/makePublicClient()`` clients, are not signed.
    ///
    /// ```swift
    /// let container = AuthContainer()
    /// container.useHTTPClient(transport)
    /// container.useRequestSigner(HMACRequestSigner(keyID: "client-1", key: key), allowedHosts: AllowedHosts(["api.example.com"]))
    /// let client = container.makeClient(for: account, strategy: strategy)
    /// ```
    /// - Parameters:
    ///   - signer: Signs each request.
    ///   - allowedHosts: The origins whose requests are signed; nil (the default) takes each
    ///     client's strategy's hosts.
    ///   - now: The signing clock; by default the container's ``/AuthCore/ClockKey`` clock.
    public func useRequestSigner(_ signer: any RequestSigner, allowedHosts: AllowedHosts? = nil, now: (@Sendable () -> Date)? = nil) {
        addMiddleware(.signing) { context in
            let clock = context.container[ClockKey.self]
            let scope = context.credentialScope
            return SigningMiddleware(
                signer: signer, scope: CredentialScope(allowedHosts: allowedHosts ?? scope.allowedHosts, account: scope.account, events: scope.events),
                now: now ?? { clock.now() })
        }
    }
}
