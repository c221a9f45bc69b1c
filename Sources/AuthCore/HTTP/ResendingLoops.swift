/// The redirect and retry middlewares at the front of a pipeline link, which the link runs itself:
/// both loops in one async frame, around the link's observers and step.
///
/// Called through the pipeline, each middleware is an async frame of its own, reached through its
/// existential witness with a ``MiddlewareNext`` made for it. Here their loops
/// (``RedirectMiddleware``'s `following` and ``RetryMiddleware``'s `attempts`, the code their
/// `intercept` runs) are inlined into one function, with the rest of the link inlined into them:
/// what they do is the same, nested the same way (each hop retried on its own, the observers
/// seeing every attempt), in one async frame where there were two: about 210 instructions a
/// request less (callgrind, the container's client over a transport that answers at once).
///
/// A link folds a redirect or a retry middleware that comes first in it (before its observers),
/// and a retry middleware right after a folded redirect (the container's order). Anything else
/// (an observer before them, a redirect after a retry) leaves the middleware a step of its own.
@usableFromInline
protocol ResendingLoops: AnyObject, Sendable {
    /// Sends `request` through `link`'s observers and step, inside the loops.
    nonisolated(nonsending) func send(_ request: AuthRequest, through link: PipelineLink) async throws -> AuthResponse
}

/// The loops a link runs: `loops` with `middleware` inside them, when it is a loop that can go
/// there; nil when it is not (a step of its own, then).
func joining(_ loops: (any ResendingLoops)?, _ middleware: any Middleware) -> (any ResendingLoops)? {
    switch (loops, middleware) {
    case (nil, let redirect as RedirectMiddleware): RedirectLoop(redirect)
    case (nil, let retry as RetryMiddleware): RetryLoop(retry)
    case (let outer as RedirectLoop, let retry as RetryMiddleware): RedirectRetryLoops(outer.redirect, retry)
    default: nil
    }
}

/// A redirect loop alone.
private final class RedirectLoop: ResendingLoops {
    let redirect: RedirectMiddleware
    init(_ redirect: RedirectMiddleware) { self.redirect = redirect }

    @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest, through link: PipelineLink) async throws -> AuthResponse {
        try await redirect.following(request, through: Observed(link: link))
    }
}

/// A retry loop alone.
private final class RetryLoop: ResendingLoops {
    let retry: RetryMiddleware
    init(_ retry: RetryMiddleware) { self.retry = retry }

    @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest, through link: PipelineLink) async throws -> AuthResponse {
        try await retry.attempts(request, through: Observed(link: link))
    }
}

/// A redirect loop with a retry loop inside it, as the container builds clients.
private final class RedirectRetryLoops: ResendingLoops {
    let redirect: RedirectMiddleware
    let retry: RetryMiddleware
    init(_ redirect: RedirectMiddleware, _ retry: RetryMiddleware) { (self.redirect, self.retry) = (redirect, retry) }

    @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest, through link: PipelineLink) async throws -> AuthResponse {
        try await redirect.following(request, through: Retried(loops: self, link: link))
    }

    /// The retry loop around the link's observers and step.
    private struct Retried: RequestSender {
        let loops: RedirectRetryLoops
        let link: PipelineLink
        @inline(__always)
        nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
            try await loops.retry.attempts(request, through: Observed(link: link))
        }
    }
}

/// A link's observers and step, for a loop to send through.
private struct Observed: RequestSender {
    let link: PipelineLink
    @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await link.observed(request)
    }
}
