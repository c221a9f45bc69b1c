/// What a middleware's loop sends each request through: the rest of a pipeline (``MiddlewareNext``)
/// or, when a pipeline link runs the loop itself, the link's own observers and step.
///
/// A loop generic over it is specialized for each, and the sender's `send` inlined into it; a
/// closure in its place stays a call of its own, an async frame per request.
protocol RequestSender: Sendable {
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse
}

extension MiddlewareNext: RequestSender {
    @inline(__always)
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await self(request)
    }
}
