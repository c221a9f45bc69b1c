import HTTPTypes
public import Logging

/// Logs each request and response through the caller's `Logger`, with secrets redacted.
///
/// At `debug`: one line per request and per response (method, URL with secret query values
/// redacted, status, byte counts). At `trace`: also the header fields, with the values of secret
/// fields replaced by `<redacted>`: ``SecretFields/standard`` (`Authorization`, cookies, API-key
/// and signature headers…), the names given here (a container passes its
/// `container.markSecret(_:)` names), and the names each request marks (a credential that
/// writes under a header or query name of its own marks it). Bodies are never logged. Nothing
/// is formatted when the logger's level is above `debug`.
public struct LoggingMiddleware: Middleware {
    private let logger: Logger
    private let secretFields: SecretFields

    /// Creates the middleware.
    /// - Parameters:
    ///   - logger: The caller's logger; its level decides what is logged.
    ///   - secretFields: Header and query item names to redact besides ``SecretFields/standard``
    ///     and the names each request marks (``RequestOptions/secretFields``).
    public init(logger: Logger, secretFields: SecretFields = SecretFields()) {
        self.logger = logger
        self.secretFields = SecretFields.standard.union(secretFields)
    }

    /// Creates the middleware with extra names to redact (case-insensitive).
    public init(logger: Logger, extraSensitiveHeaders: Set<String>, extraSensitiveQueryItems: Set<String> = []) {
        self.init(logger: logger, secretFields: SecretFields(headers: extraSensitiveHeaders, queryItems: extraSensitiveQueryItems))
    }

    // Inlined into its protocol witness, which the pipeline calls: one async frame per request
    // instead of two.
    /// Logs around the rest of the pipeline.
    @inline(__always)
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard logger.logLevel <= .debug else { return try await next(request) }
        let secrets = request.options.secretFields.isEmpty ? secretFields : secretFields.union(request.options.secretFields)
        let target = "\(request.head.scheme ?? "")://\(HTTPRedaction.authority(request.head.authority ?? ""))\(QueryItems.redacting(secrets.queryItemNames, in: request.head.path ?? "/"))"
        var metadata: Logger.Metadata = ["method": "\(request.head.method)", "url": "\(target)", "bytes": "\(request.body.count)"]
        if logger.logLevel <= .trace { metadata["headers"] = Self.redacted(request.head.headerFields, secrets) }
        logger.debug("request", metadata: metadata)
        do {
            let response = try await next(request)
            var responseMetadata: Logger.Metadata = ["url": "\(target)", "status": "\(response.status.code)", "bytes": "\(response.body.count)"]
            if logger.logLevel <= .trace { responseMetadata["headers"] = Self.redacted(response.head.headerFields, secrets) }
            logger.debug("response", metadata: responseMetadata)
            return response
        } catch {
            logger.debug("request failed", metadata: ["url": "\(target)", "error": "\(error)"])
            throw error
        }
    }

    private static func redacted(_ fields: HTTPFields, _ secrets: SecretFields) -> Logger.MetadataValue {
        .dictionary(Dictionary(fields.map { field in
            let name = field.name.canonicalName
            return (name, Logger.MetadataValue.string(secrets.containsHeader(name) ? "<redacted>" : field.value))
        }, uniquingKeysWith: { first, second in .string("\(first), \(second)") }))
    }
}
