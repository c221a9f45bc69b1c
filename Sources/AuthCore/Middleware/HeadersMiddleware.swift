public import HTTPTypes

/// Adds header fields to every request: static values, and values computed per request (such
/// as a per-account device id). Fields the request already has are kept.
public struct HeadersMiddleware: Middleware {
    private let fields: HTTPFields
    private let dynamic: (@Sendable (AuthRequest) async throws -> HTTPFields)?

    /// Creates the middleware.
    /// - Parameters:
    ///   - fields: Added to every request.
    ///   - dynamic: Computed for each request and added too.
    public init(_ fields: HTTPFields = [:], dynamic: (@Sendable (AuthRequest) async throws -> HTTPFields)? = nil) {
        self.fields = fields
        self.dynamic = dynamic
    }

    /// Adds the fields the request lacks.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        var request = request
        add(fields, to: &request)
        if let dynamic { add(try await dynamic(request), to: &request) }
        return try await next(request)
    }

    private func add(_ fields: HTTPFields, to request: inout AuthRequest) {
        for field in fields where !request.head.headerFields.contains(field.name) {
            request.head.headerFields.append(field)
        }
    }
}
