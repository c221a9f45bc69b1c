import HTTPTypes
public import Logging

/// Logs each request and response through the caller's `Logger`, with secrets redacted.
///
/// At `debug`: one line per request and per response (method, URL with sensitive query values
/// redacted, status, byte counts). At `trace`: also the header fields, with the values of
/// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, API-key and signature headers
/// replaced by `<redacted>`. Bodies are never logged. Nothing is formatted when the logger's
/// level is above `debug`.
public struct LoggingMiddleware: Middleware {
    /// Header names whose values are never logged.
    public static let defaultSensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-csrf-token", "x-xsrf-token", "signature", "signature-input", "x-signature", "x-amz-security-token",
        "x-amz-content-sha256", "www-authenticate",
    ]
    /// Query item names (lower-case) whose values are never logged.
    public static let defaultSensitiveQueryItems: Set<String> = [
        "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "token", "client_secret",
        "password", "code", "sig", "signature", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
    ]

    private let logger: Logger
    private let sensitiveHeaders: Set<String>
    private let sensitiveQueryItems: Set<String>

    /// Creates the middleware.
    /// - Parameters:
    ///   - logger: The caller's logger; its level decides what is logged.
    ///   - extraSensitiveHeaders: More header names to redact (case-insensitive).
    ///   - extraSensitiveQueryItems: More query item names to redact (case-insensitive).
    public init(logger: Logger, extraSensitiveHeaders: Set<String> = [], extraSensitiveQueryItems: Set<String> = []) {
        self.logger = logger
        self.sensitiveHeaders = Self.defaultSensitiveHeaders.union(extraSensitiveHeaders.map { $0.lowercased() })
        self.sensitiveQueryItems = Self.defaultSensitiveQueryItems.union(extraSensitiveQueryItems.map { $0.lowercased() })
    }

    /// Logs around the rest of the pipeline.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard logger.logLevel <= .debug else { return try await next(request) }
        let target = "\(request.head.scheme ?? "")://\(request.head.authority ?? "")\(QueryItems.redacting(sensitiveQueryItems, in: request.head.path ?? "/"))"
        var metadata: Logger.Metadata = ["method": "\(request.head.method)", "url": "\(target)", "bytes": "\(request.body.count)"]
        if logger.logLevel <= .trace { metadata["headers"] = redacted(request.head.headerFields) }
        logger.debug("request", metadata: metadata)
        do {
            let response = try await next(request)
            var responseMetadata: Logger.Metadata = ["url": "\(target)", "status": "\(response.status.code)", "bytes": "\(response.body.count)"]
            if logger.logLevel <= .trace { responseMetadata["headers"] = redacted(response.head.headerFields) }
            logger.debug("response", metadata: responseMetadata)
            return response
        } catch {
            logger.debug("request failed", metadata: ["url": "\(target)", "error": "\(error)"])
            throw error
        }
    }

    private func redacted(_ fields: HTTPFields) -> Logger.MetadataValue {
        .dictionary(Dictionary(fields.map { field in
            let name = field.name.canonicalName
            return (name, Logger.MetadataValue.string(sensitiveHeaders.contains(name) ? "<redacted>" : field.value))
        }, uniquingKeysWith: { first, second in .string("\(first), \(second)") }))
    }
}
