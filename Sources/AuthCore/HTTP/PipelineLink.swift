/// One step of a linked pipeline: a middleware, the observers just before it, and the link after
/// it; or, at the end, the transport (or a closure standing for the rest of a pipeline), which the
/// link calls directly. Every link holds a non-optional middleware (an end's sends through its
/// transport, and is never called), so that `send` calls it in place, without copying the
/// existential (and retaining what it holds) on every request.
///
/// An ``ObservingMiddleware`` gets no link of its own: its hooks run in the link of the next step
/// that is not an observer, as plain calls in the caller's async frame. Nor does a
/// ``RedirectMiddleware`` or ``RetryMiddleware`` at the front of a link (before its observers):
/// the link runs their loops itself, in one async frame for both (``ResendingLoops``).
@usableFromInline
final class PipelineLink: Sendable {
    @usableFromInline let middleware: any Middleware
    /// The observers between the step before and this one, outermost first.
    @usableFromInline let observers: [Observer]
    /// The redirect and retry loops around the observers and the step, when the link has them.
    /// Optional, unlike the transport: a class-bound existential, whose unwrapping per request
    /// copies one reference.
    @usableFromInline let loops: (any ResendingLoops)?
    @usableFromInline let then: PipelineLink?
    /// The pipeline's transport, which an end link calls directly rather than through the witness
    /// of a middleware standing for it (one async frame less per request). Every link holds it,
    /// so that it is not an optional, copied (an existential copy) to be unwrapped per request.
    @usableFromInline let transport: any Transport
    /// Whether this is the end, which sends through ``transport``: the one link with none after it.
    @usableFromInline var isEnd: Bool { then == nil }

    private init(_ middleware: any Middleware, loops: (any ResendingLoops)?, observers: [any ObservingMiddleware], then: PipelineLink) {
        self.middleware = middleware
        self.loops = loops
        self.observers = observers.map(Observer.init)
        self.then = then
        self.transport = then.transport
    }

    /// An end link that sends through `transport`. Standing alone (what ``MiddlewareNext`` holds
    /// when it is made from a closure), it is its own ``following``.
    init(end transport: any Transport, loops: (any ResendingLoops)? = nil, observers: [any ObservingMiddleware] = []) {
        self.middleware = End(transport: transport)
        self.loops = loops
        self.observers = observers.map(Observer.init)
        self.then = nil
        self.transport = transport
    }

    /// Links `middlewares` (outermost first) in front of `transport`.
    convenience init(_ middlewares: [any Middleware], transport: any Transport) {
        // Each step that is neither an observer nor a loop the link runs, with the loops and the
        // observers just before it.
        typealias Step = (loops: (any ResendingLoops)?, observers: [any ObservingMiddleware], middleware: any Middleware)
        var steps: [Step] = []
        var loops: (any ResendingLoops)?
        var observers: [any ObservingMiddleware] = []
        for middleware in middlewares {
            if let observer = middleware as? any ObservingMiddleware {
                observers.append(observer)
            } else if observers.isEmpty, let joined = joining(loops, middleware) {
                loops = joined
            } else {
                steps.append((loops, observers, middleware))
                (loops, observers) = (nil, [])
            }
        }
        guard let first = steps.first else {
            self.init(end: transport, loops: loops, observers: observers)
            return
        }
        var link = PipelineLink(end: transport, loops: loops, observers: observers)
        for step in steps.dropFirst().reversed() {
            link = PipelineLink(step.middleware, loops: step.loops, observers: step.observers, then: link)
        }
        self.init(first.middleware, loops: first.loops, observers: first.observers, then: link)
    }

    // Inlined into each caller (a middleware's `next`, a client's `send`): a function of its own
    // would be one more async frame per step.
    @inlinable @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        if let loops { return try await loops.send(request, through: self) }
        return try await observed(request)
    }

    /// This link's observers around its step, without its loops.
    @inlinable @inline(__always)
    nonisolated(nonsending) func observed(_ request: AuthRequest) async throws -> AuthResponse {
        if observers.isEmpty { return try await step(request) }
        for observer in observers { observer.middleware.willSend(request) }
        do {
            let response = try await step(request)
            for observer in observers.reversed() { observer.middleware.didReceive(response, for: request) }
            return response
        } catch {
            for observer in observers.reversed() { observer.middleware.didFail(error, for: request) }
            throw error
        }
    }

    /// This link's middleware or transport, without its observers.
    @inlinable @inline(__always)
    nonisolated(nonsending) func step(_ request: AuthRequest) async throws -> AuthResponse {
        if isEnd { return try await transport.send(request) }
        return try await middleware.intercept(request, next: MiddlewareNext(self))
    }

    /// The link after this one. Only an end link has none: its own link stands there, so that
    /// this needs no check that could trap, and a ``MiddlewareNext`` made from a closure (an end
    /// link alone, without loops) sends through the closure. No other ``MiddlewareNext`` is made
    /// for an end link (`step` calls its transport directly), so an end link's loops are never
    /// entered again from inside them.
    @usableFromInline var following: PipelineLink { then ?? self }

    /// An observer, held by reference: iterating the observers copies a reference, not the
    /// observer's value (a logger's fields, retained one by one).
    @usableFromInline
    final class Observer: Sendable {
        @usableFromInline let middleware: any ObservingMiddleware
        init(_ middleware: any ObservingMiddleware) { self.middleware = middleware }
    }

    /// The middleware an end link holds: it sends through the transport (the link calls the
    /// transport itself).
    private struct End: Middleware {
        let transport: any Transport

        nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
            try await transport.send(request)
        }
    }
}
