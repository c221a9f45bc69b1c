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
