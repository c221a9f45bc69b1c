public import AuthCore
public import Foundation
import Crypto
import HTTPTypes

extension SigV4Signer {
    /// The longest validity AWS accepts for a presigned URL: seven days.
    public static let maximumPresignExpiry = 604_800

    /// Presigns `request` as a URL that carries its signature in the query
    /// (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`,
    /// `X-Amz-SignedHeaders`, `X-Amz-Security-Token` when there is a token, `X-Amz-Signature`).
    ///
    /// The header fields on the request (host included) are signed and must be sent with the URL.
    ///
    /// ```swift
    /// let presigned = try sigV4.presign(request, at: Date(), expires: 3600)
    /// let url = presigned.request.url
    /// ```
    /// - Parameters:
    ///   - request: The request to presign; its query is kept.
    ///   - date: The signing time.
    ///   - expires: Validity in seconds, 1 to 604 800.
    ///   - payload: `.unsigned` (the usual choice for presigned URLs) or `.signed`.
    /// - Returns: The signature with its intermediates; its `request` holds the presigned path.
    /// - Throws: ``SigningError`` when the request has no authority or `expires` is out of range.
    public func presign(
        _ request: AuthRequest, at date: Date, expires: Int, payload: SigV4Configuration.Payload = .unsigned
    ) throws -> SigV4Signature {
        guard (1...Self.maximumPresignExpiry).contains(expires) else {
            throw SigningError.invalidRequest("a presigned URL expires after 1 to \(Self.maximumPresignExpiry) seconds, not \(expires)")
        }
        let time = UTCTimestamp(date)
        var request = request
        for name in signatureFieldNames { request.head.headerFields[name] = nil }
        let signedHeaders = SigV4Canonicalizer.canonicalHeaders(
            request.head.headerFields, authority: request.head.authority, excluding: configuration.unsignedHeaders
        ).signed
        var added: [(name: String, value: String)] = [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(credentialScope(day: time.day))"),
            ("X-Amz-Date", time.basic),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", signedHeaders),
        ]
        let token = credentials.sessionToken.map { (name: "X-Amz-Security-Token", value: $0) }
        if let token, configuration.sessionTokenPlacement == .signed { added.append(token) }
        let parts = try canonicalParts(of: request, extraQuery: added)
        let payloadHash = payload == .signed ? Encoding.hex(SHA256.hash(data: request.body)) : "UNSIGNED-PAYLOAD"
        let result = finish(parts: parts, payloadHash: payloadHash, time: time)

        added.append(("X-Amz-Signature", result.signature))
        if let token, configuration.sessionTokenPlacement == .appendedAfterSigning { added.append(token) }
        let (path, query) = CanonicalQuery.split(target: request.head.path ?? "/")
        let addedQuery = added.map { "\(Encoding.percentEncode($0.name))=\(Encoding.percentEncode($0.value))" }.joined(separator: "&")
        let existing = query.map { $0.isEmpty ? "" : "\($0)&" } ?? ""
        request.head.path = "\(path.isEmpty ? "/" : path)?\(existing)\(addedQuery)"
        return SigV4Signature(
            canonicalRequest: result.canonicalRequest, stringToSign: result.stringToSign, signature: result.signature,
            signedHeaders: signedHeaders, credentialScope: result.scope, authorization: "", request: request
        )
    }
}
