public import AuthCore
public import Foundation
import HTTPTypes

/// A middleware that signs every request it passes on, with a fresh time each time.
///
/// Place it innermost: after authentication and just before the transport, so that every retry
/// and every redirect hop goes through it again and is signed again with a fresh timestamp (and
/// nonce, for signers that use one). Before signing it removes the signature fields a previous
/// hop left, so a request never carries two signatures.
///
/// ```swift
/// let middlewares: [any Middleware] = [retry, authentication, SigningMiddleware(signer: signer)]
/// ```
public struct SigningMiddleware: Middleware {
    /// The signer run for every request.
    public let signer: any RequestSigner
    private let now: @Sendable () -> Date

    /// Creates a signing middleware.
    /// - Parameters:
    ///   - signer: Signs each request.
    ///   - now: The clock; read once per request.
    public init(signer: any RequestSigner, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.now = now
    }

    /// Removes stale signature fields, signs the request and passes it on.
    /// - Throws: What the signer throws (the request is then not sent), or what `next` throws.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        var signed = request
        for name in signer.signatureFieldNames {
            signed.head.headerFields[name] = nil
        }
        try await signer.sign(&signed, at: now())
        return try await next(signed)
    }
}
