public import HTTPTypes

/// Adds header fields to every request: static values, and values computed per request (such
/// as a per-account device id). Fields the request already has are kept.
public struct HeadersMiddleware: Middleware, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
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

    /// The names of the fields it adds, never their values (a static value may be a key).
    public var description: String {
        "HeadersMiddleware(fields: [\(fields.map(\.name.rawName).joined(separator: ", "))]\(dynamic == nil ? "" : ", dynamic"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The field names only.
    public var customMirror: Mirror {
        Mirror(self, children: ["fields": fields.map(\.name.rawName), "dynamic": dynamic != nil], displayStyle: .struct)
    }

    private func add(_ fields: HTTPFields, to request: inout AuthRequest) {
        for field in fields where !request.head.headerFields.contains(field.name) {
            request.head.headerFields.append(field)
        }
    }
}
