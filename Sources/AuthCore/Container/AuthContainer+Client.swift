import HTTPTypes

extension AuthContainer {
    /// Builds a client that acts as `account` with `strategy`.
    ///
    /// The pipeline, outermost first: plug-in outer middlewares, redirect, retry, rate-limit
    /// observer, headers, authentication, plug-in inner middlewares, timeout (when configured),
    /// logging, then the transport. Every client of the same account shares its session.
    public func makeClient<S: AuthStrategy>(for account: AccountKey, strategy: S) -> AccountClient<S> {
        let session = self[RenewalCoordinatorKey.self].session(for: account, strategy: strategy)
        let clock = self[ClockKey.self]
        let plugins = self[PluginMiddlewaresKey.self]
        var middlewares: [any Middleware] = plugins.outer.map { $0(self, account) }
        middlewares += [
            RedirectMiddleware(),
            RetryMiddleware(policy: self[RetryPolicyKey.self], clock: clock),
            RateLimitObserver(events: self[AuthEventsKey.self], account: account, clock: clock),
        ]
        let headers = self[DefaultHeadersKey.self]
        if !headers.isEmpty { middlewares.append(HeadersMiddleware(headers)) }
        middlewares.append(AuthenticationMiddleware(session: session))
        middlewares += plugins.inner.map { $0(self, account) }
        if let timeout = self[RequestTimeoutKey.self] { middlewares.append(TimeoutMiddleware(timeout: timeout, clock: clock)) }
        middlewares.append(LoggingMiddleware(logger: self[LoggerKey.self]))
        return AccountClient(session: session, client: AuthClient(transport: self[TransportKey.self], middlewares: middlewares))
    }

    /// A client with the container's transport, retry, redirect and logging but no account,
    /// for sign-in calls and public endpoints.
    public func makePublicClient() -> AuthClient {
        let clock = self[ClockKey.self]
        return AuthClient(transport: self[TransportKey.self], middlewares: [
            RedirectMiddleware(),
            RetryMiddleware(policy: self[RetryPolicyKey.self], clock: clock),
            HeadersMiddleware(self[DefaultHeadersKey.self]),
            LoggingMiddleware(logger: self[LoggerKey.self]),
        ])
    }
}
