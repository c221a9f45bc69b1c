// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Logging

extension AuthContainer {
    /// Builds a client that acts as `account` with `strategy`.
    ///
    /// The pipeline, outermost first: plug-ins of the observation and caching phases, redirect,
    /// retry, rate-limit observer, headers, authentication, plug-ins of the proof, session and
    /// signing phases, timeout (when configured), logging (unless the container's logger
    /// discards everything, as its default does), then the transport (see
    /// ``MiddlewarePhase``). Every client of the same account shares its session, and
    /// with it the strategy the first client of that account was built with (see
    /// ``SessionRegistry/session(for:strategy:)``).
    public func makeClient<S: AuthStrategy>(for account: AccountKey, strategy: S) -> AccountClient<S> {
        if (self[CredentialStoreKey.self] as? InMemoryCredentialStore)?.isContainerDefault == true {
            self[AuthEventsKey.self].emit(.credentialsNotPersisted(account))
            self[LoggerKey.self].notice("no credential store is configured: the account's credentials are kept in memory only", metadata: ["account": "\(account)"])
        }
        let session = self[SessionRegistryKey.self].session(for: account, strategy: strategy)
        let clock = self[ClockKey.self]
        let plugins = self[PluginMiddlewaresKey.self]
        let secrets = self[SecretFieldsKey.self]
        // The session's strategy: the first client of the account chose it, and its hosts are
        // where the account's credential goes.
        let context = PluginContext(container: self, account: account, allowedHosts: session.strategy.allowedHosts)
        var middlewares = plugins.middlewares(where: \.isOutsideAuthentication, for: context)
        middlewares += [
            RedirectMiddleware(secretFields: secrets),
            RetryMiddleware(policy: self[RetryPolicyKey.self], clock: clock),
            RateLimitObserver(events: self[AuthEventsKey.self], account: account, clock: clock),
        ]
        let headers = self[DefaultHeadersKey.self]
        if !headers.isEmpty { middlewares.append(HeadersMiddleware(headers, secretFields: secrets, secretScope: context.credentialScope)) }
        middlewares.append(AuthenticationMiddleware(session: session, accessGate: self[CredentialAccessGateKey.self]))
        middlewares += plugins.middlewares(where: { !$0.isOutsideAuthentication }, for: context)
        if let timeout = self[RequestTimeoutKey.self] { middlewares.append(TimeoutMiddleware(timeout: timeout, clock: clock)) }
        if let logging = logging(secrets) { middlewares.append(logging) }
        return AccountClient(session: session, client: AuthClient(transport: self[TransportKey.self], middlewares: middlewares))
    }

    /// A client with the container's transport, retry, redirect and logging but no account,
    /// for sign-in calls and public endpoints.
    ///
    /// It has no credential and no origin of its own, so a default header under a secret name
    /// is not sent through it. A secret a caller puts on a request still goes to that request's
    /// origin; a redirect to another drops it when its name is a secret one (standard, marked on
    /// the request, or given to `markSecret(_:)`).
    public func makePublicClient() -> AuthClient {
        let clock = self[ClockKey.self]
        let secrets = self[SecretFieldsKey.self]
        return AuthClient(transport: self[TransportKey.self], middlewares: [
            RedirectMiddleware(secretFields: secrets),
            RetryMiddleware(policy: self[RetryPolicyKey.self], clock: clock),
            HeadersMiddleware(self[DefaultHeadersKey.self], secretFields: secrets, secretScope: CredentialScope(allowedHosts: AllowedHosts([]), events: self[AuthEventsKey.self])),
        ] + [logging(secrets)].compactMap { $0 })
    }

    /// The logging middleware, or nil when the container's logger discards everything
    /// (`SwiftLogNoOpLogHandler`, the default ``LoggerKey``): such a logger never logs, whatever
    /// its level.
    private func logging(_ secrets: SecretFieldNames) -> LoggingMiddleware? {
        let logger = self[LoggerKey.self]
        guard !(logger.handler is SwiftLogNoOpLogHandler) else { return nil }
        return LoggingMiddleware(logger: logger, secretFields: secrets)
    }
}

extension AuthContainer {
    /// Treats these header and query item names as secret in every client this container builds
    /// from now on: logging redacts them, a redirect to another origin drops them.
    ///
    /// Credentials that write under a name of their own (an API key in `X-Service-Token`) mark it
    /// themselves; this is for secrets a caller puts on requests directly.
    public func markSecret(_ fields: SecretFieldNames) {
        override(SecretFieldsKey.self, with: self[SecretFieldsKey.self].union(fields))
    }
}
