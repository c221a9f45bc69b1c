/// A step of the request pipeline: sees every request on its way out and its response on the way
/// back, and may change, repeat or answer it.
///
/// The client is a transport plus an ordered list of middlewares; the first is the outermost.
///
/// ## Implementing
/// Call `next` zero or more times (a retry calls it again; a cache may answer without it) and
/// return a response. Keep per-request state local: one middleware value serves concurrent
/// requests. ``ClosureMiddleware`` adapts a closure.
public protocol Middleware: Sendable {
    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as the previous middleware passed it on.
    ///   - next: The rest of the pipeline, ending at the transport.
    func intercept(
        _ request: AuthRequest,
        next: @Sendable (AuthRequest) async throws -> AuthResponse
    ) async throws -> AuthResponse
}

/// A middleware built from a closure.
public struct ClosureMiddleware: Middleware {
    private let body: @Sendable (AuthRequest, @Sendable (AuthRequest) async throws -> AuthResponse) async throws -> AuthResponse
    /// Creates a middleware that runs `body` for every request.
    public init(
        _ body: @escaping @Sendable (AuthRequest, @Sendable (AuthRequest) async throws -> AuthResponse) async throws -> AuthResponse
    ) {
        self.body = body
    }
    /// Runs the closure.
    public func intercept(
        _ request: AuthRequest,
        next: @Sendable (AuthRequest) async throws -> AuthResponse
    ) async throws -> AuthResponse {
        try await body(request, next)
    }
}
