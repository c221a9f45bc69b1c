public import AuthCore
public import Foundation
public import HTTPTypes
import Crypto

/// Signs requests with AWS Signature Version 4 (`AWS4-HMAC-SHA256`) in the `Authorization` header,
/// or as a presigned URL (``presign(_:at:expires:payload:)``).
///
/// ```swift
/// let signer = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "sts"))
/// var request = try AuthRequest(method: .get, url: URL(string: "https://sts.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15")!)
/// try await signer.sign(&request, at: Date())
/// ```
public struct SigV4Signer: RequestSigner, CustomStringConvertible {
    /// The algorithm name.
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The credentials; never printed.
    public let credentials: AWSCredentials
    /// Region, service and canonicalisation rules.
    public let configuration: SigV4Configuration
    private let keyCache = SigV4KeyCache()

    static let amzDate = HTTPField.Name.literal("X-Amz-Date")
    static let securityToken = HTTPField.Name.literal("X-Amz-Security-Token")
    static let contentSHA256 = HTTPField.Name.literal("x-amz-content-sha256")

    /// Creates a signer.
    public init(credentials: AWSCredentials, configuration: SigV4Configuration) {
        self.credentials = credentials
        self.configuration = configuration
    }

    /// `Authorization`, `X-Amz-Date`, `X-Amz-Security-Token` and `x-amz-content-sha256`.
    public var signatureFieldNames: [HTTPField.Name] {
        [.authorization, Self.amzDate, Self.securityToken, Self.contentSHA256]
    }

    /// Adds `X-Amz-Date`, the session token, `x-amz-content-sha256` (when configured) and
    /// `Authorization` to `request`.
    /// - Throws: ``SigningError`` when the request has no authority.
    public func sign(_ request: inout AuthRequest, at date: Date) async throws {
        request = try signature(for: request, at: date).request
    }

    /// Computes the header signature of `request` with all intermediate results.
    /// - Throws: ``SigningError`` when the request has no authority.
    public func signature(for request: AuthRequest, at date: Date) throws -> SigV4Signature {
        let time = UTCTimestamp(date)
        var request = request
        var fields = request.head.headerFields
        for name in signatureFieldNames { fields[name] = nil }
        fields[Self.amzDate] = time.basic
        if let token = credentials.sessionToken, configuration.sessionTokenPlacement == .signed {
            fields[Self.securityToken] = token
        }
        let payloadHash = configuration.payload == .signed ? Encoding.hex(SHA256.hash(data: request.body)) : "UNSIGNED-PAYLOAD"
        if configuration.sendsContentSHA256 { fields[Self.contentSHA256] = payloadHash }
        request.head.headerFields = fields

        let parts = try canonicalParts(of: request, extraQuery: [])
        let result = finish(parts: parts, payloadHash: payloadHash, time: time)
        fields[.authorization] = "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(result.scope), SignedHeaders=\(parts.signedHeaders), Signature=\(result.signature)"
        if let token = credentials.sessionToken, configuration.sessionTokenPlacement == .appendedAfterSigning {
            fields[Self.securityToken] = token
        }
        request.head.headerFields = fields
        return SigV4Signature(
            canonicalRequest: result.canonicalRequest, stringToSign: result.stringToSign, signature: result.signature,
            signedHeaders: parts.signedHeaders, credentialScope: result.scope,
            authorization: fields[.authorization] ?? "", request: request
        )
    }

    struct CanonicalParts {
        var method: String
        var uri: String
        var query: String
        var headers: String
        var signedHeaders: String
    }

    /// Method, canonical URI, canonical query (with `extraQuery` added) and canonical headers.
    func canonicalParts(of request: AuthRequest, extraQuery: [(name: String, value: String)]) throws -> CanonicalParts {
        guard let authority = request.head.authority, !authority.isEmpty else {
            throw SigningError.invalidRequest("the request has no authority (host); SigV4 signs the host")
        }
        let (path, query) = CanonicalQuery.split(target: request.head.path ?? "/")
        let headers = SigV4Canonicalizer.canonicalHeaders(
            request.head.headerFields, authority: authority, excluding: configuration.unsignedHeaders
        )
        return CanonicalParts(
            method: request.head.method.rawValue,
            uri: SigV4Canonicalizer.canonicalURI(path, rule: configuration.pathCanonicalization),
            query: CanonicalQuery.canonical(CanonicalQuery.pairs(query ?? "") + extraQuery),
            headers: headers.block,
            signedHeaders: headers.signed
        )
    }

    /// Builds the canonical request and string to sign, and signs.
    func finish(parts: CanonicalParts, payloadHash: String, time: UTCTimestamp)
        -> (canonicalRequest: String, stringToSign: String, signature: String, scope: String) {
        let canonicalRequest = [parts.method, parts.uri, parts.query, parts.headers, parts.signedHeaders, payloadHash]
            .joined(separator: "\n")
        let scope = credentialScope(day: time.day)
        let stringToSign = [
            Self.algorithm, time.basic, scope, Encoding.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        let key = keyCache.key(day: time.day) { day in
            SigV4SigningKey.derive(
                secretAccessKey: credentials.secretAccessKey, day: day,
                region: configuration.region, service: configuration.service
            )
        }
        let signature = Encoding.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        return (canonicalRequest, stringToSign, signature, scope)
    }

    func credentialScope(day: String) -> String {
        "\(day)/\(configuration.region)/\(configuration.service)/aws4_request"
    }

    /// Names the access key id, region and service; never a secret.
    public var description: String {
        "SigV4Signer(accessKeyID: \(credentials.accessKeyID), region: \(configuration.region), service: \(configuration.service))"
    }
}
