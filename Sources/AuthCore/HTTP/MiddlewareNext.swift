/// The rest of a pipeline, as a middleware receives it: call it like a function,
/// `try await next(request)`, zero or more times.
///
/// ``AuthClient`` links its middlewares once, when it is created; calling `next` then goes
/// straight to the next middleware (or the transport) with no closure in between, which saves
/// two task allocations and an executor check per middleware per request. To call a middleware
/// by hand, pass a closure: `try await middleware.intercept(request) { try await transport.send($0) }`.
public struct MiddlewareNext: Sendable {
    /// A closure that stands for the rest of a pipeline.
    public typealias Body = nonisolated(nonsending) @Sendable (AuthRequest) async throws -> AuthResponse

    /// The link whose middleware is being called; `next` sends through the link after it.
    @usableFromInline let link: PipelineLink

    @usableFromInline init(_ link: PipelineLink) { self.link = link }

    /// The rest of the pipeline as `body`.
    public init(_ body: @escaping Body) {
        link = PipelineLink(end: ClosureTransport(body))
    }

    /// Sends `request` through the rest of the pipeline.
    @inlinable @inline(__always)
    public nonisolated(nonsending) func callAsFunction(_ request: AuthRequest) async throws -> AuthResponse {
        try await link.following.send(request)
    }
}

/// One step of a linked pipeline: a middleware, the observers just before it, and the link after
/// it; or, at the end, the transport (or a closure standing for the rest of a pipeline), which the
/// link calls directly. Every link holds a non-optional middleware (an end's sends through its
/// transport, and is never called), so that `send` calls it in place, without copying the
/// existential (and retaining what it holds) on every request.
///
/// An ``ObservingMiddleware`` gets no link of its own: its hooks run in the link of the next step
/// that is not an observer, as plain calls in the caller's async frame.
@usableFromInline
final class PipelineLink: Sendable {
    @usableFromInline let middleware: any Middleware
    /// The observers between the step before and this one, outermost first.
    @usableFromInline let observers: [Observer]
    @usableFromInline let then: PipelineLink?
    /// The pipeline's transport, which an end link calls directly rather than through the witness
    /// of a middleware standing for it (one async frame less per request). Every link holds it,
    /// so that it is not an optional, copied (an existential copy) to be unwrapped per request.
    @usableFromInline let transport: any Transport
    /// Whether this is the end, which sends through ``transport``: the one link with none after it.
    @usableFromInline var isEnd: Bool { then == nil }

    private init(_ middleware: any Middleware, observers: [any ObservingMiddleware], then: PipelineLink) {
        self.middleware = middleware
        self.observers = observers.map(Observer.init)
        self.then = then
        self.transport = then.transport
    }

    /// An end link that sends through `transport`. Standing alone (what ``MiddlewareNext`` holds
    /// when it is made from a closure), it is its own ``following``.
    init(end transport: any Transport, observers: [any ObservingMiddleware] = []) {
        self.middleware = End(transport: transport)
        self.observers = observers.map(Observer.init)
        self.then = nil
        self.transport = transport
    }

    /// Links `middlewares` (outermost first) in front of `transport`.
    convenience init(_ middlewares: [any Middleware], transport: any Transport) {
        // Each step that is not an observer, with the observers just before it.
        var steps: [(observers: [any ObservingMiddleware], middleware: any Middleware)] = []
        var observers: [any ObservingMiddleware] = []
        for middleware in middlewares {
            if let observer = middleware as? any ObservingMiddleware {
                observers.append(observer)
            } else {
                steps.append((observers, middleware))
                observers = []
            }
        }
        guard let first = steps.first else {
            self.init(end: transport, observers: observers)
            return
        }
        var link = PipelineLink(end: transport, observers: observers)
        for step in steps.dropFirst().reversed() {
            link = PipelineLink(step.middleware, observers: step.observers, then: link)
        }
        self.init(first.middleware, observers: first.observers, then: link)
    }

    // Inlined into each caller (a middleware's `next`, a client's `send`): a function of its own
    // would be one more async frame per step.
    @inlinable @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
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
    /// link alone) sends through the closure.
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
