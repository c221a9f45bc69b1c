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
        link = PipelineLink(before: body)
    }

    /// Sends `request` through the rest of the pipeline.
    @inlinable
    public nonisolated(nonsending) func callAsFunction(_ request: AuthRequest) async throws -> AuthResponse {
        try await link.following.send(request)
    }
}

/// One step of a linked pipeline: a middleware and the link after it. The end of the pipeline is
/// a middleware too (it sends through the transport, or calls a closure, and has no link after
/// it), so that every link holds a non-optional middleware that `send` calls in place, without
/// copying the existential (and retaining what it holds) on every request.
@usableFromInline
final class PipelineLink: Sendable {
    @usableFromInline let middleware: any Middleware
    @usableFromInline let then: PipelineLink?

    private init(_ middleware: any Middleware, then: PipelineLink?) {
        self.middleware = middleware
        self.then = then
    }

    /// A link whose following link is an end that `body` answers: what ``MiddlewareNext``
    /// stands on when it is made from a closure.
    convenience init(before body: @escaping MiddlewareNext.Body) {
        let end = PipelineLink(End.closure(body), then: nil)
        self.init(end.middleware, then: end)
    }

    /// Links `middlewares` (outermost first) in front of `transport`.
    convenience init(_ middlewares: [any Middleware], transport: any Transport) {
        var link = PipelineLink(End.transport(transport), then: nil)
        for middleware in middlewares.dropFirst().reversed() {
            link = PipelineLink(middleware, then: link)
        }
        if let first = middlewares.first {
            self.init(first, then: link)
        } else {
            self.init(link.middleware, then: nil)
        }
    }

    @inlinable
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await middleware.intercept(request, next: MiddlewareNext(self))
    }

    /// The link after this one. Only an end link has none, and an end never calls `next`; its
    /// own link stands there so that this needs no check that could trap.
    @usableFromInline var following: PipelineLink { then ?? self }

    /// The last step: the transport, or a closure standing for the rest of a pipeline.
    private enum End: Middleware {
        case transport(any Transport)
        case closure(MiddlewareNext.Body)

        // Inlined into its protocol witness: one async frame per request instead of two.
        @inline(__always)
        nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
            switch self {
            case .transport(let transport): try await transport.send(request)
            case .closure(let body): try await body(request)
            }
        }
    }
}
