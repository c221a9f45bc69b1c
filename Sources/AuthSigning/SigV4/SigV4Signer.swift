// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
public import HTTPTypes
import Crypto

/// Signs requests with AWS Signature Version 4 (`AWS4-HMAC-SHA256`) in the `Authorization` header,
/// or as a presigned URL (``presign(_:at:expires:payload:)``).
///
/// What is signed is what goes on the wire: the `Host` value the transport sends (no default
/// port), the path and query as bytes (an escape such as `%FF` that is not UTF-8 is signed as
/// that byte), and no hop-by-hop or tracing field (see
/// ``SigV4Configuration/defaultUnsignedHeaders``).
///
/// The request target that goes on the wire is byte for byte the one signed: signing writes the
/// target in the spelling SigV4 canonicalizes to onto the request (an S3 key `a(1)` becomes
/// `a%281%29`, a query `q=a+b` becomes `q=a%2Bb`) and signs from that string, so a verifier that
/// recomputes the signature from the target it received, canonicalizing it or not, agrees.
/// Send the request as signed: a transport that cannot send its target unchanged refuses it.
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
    /// `/region/service/aws4_request`: the credential scope after its day.
    let scopeSuffix: [UInt8]
    /// `configuration.unsignedHeaders`, ready for one check per field.
    let unsignedHeaders: HeaderExclusion
    /// See ``signatureFieldNames``; made once.
    private let fieldNames: [HTTPField.Name]

    static let amzDate = HTTPField.Name.literal("X-Amz-Date")
    static let securityToken = HTTPField.Name.literal("X-Amz-Security-Token")
    static let contentSHA256 = HTTPField.Name.literal("x-amz-content-sha256")
    static let host = HTTPField.Name.literal("Host")
    /// `AWS4-HMAC-SHA256` and LF: the first line of the string to sign.
    static let algorithmLine = Array("\(algorithm)\n".utf8)

    /// Creates a signer.
    public init(credentials: AWSCredentials, configuration: SigV4Configuration) {
        self.credentials = credentials
        self.configuration = configuration
        self.scopeSuffix = Array("/\(configuration.region)/\(configuration.service)/aws4_request".utf8)
        self.unsignedHeaders = HeaderExclusion(configuration.unsignedHeaders)
        self.fieldNames = [.authorization, Self.amzDate, Self.securityToken] + (configuration.sendsContentSHA256 ? [Self.contentSHA256] : [])
    }

    /// `Authorization`, `X-Amz-Date`, `X-Amz-Security-Token`, and `x-amz-content-sha256` when
    /// the configuration sends it (otherwise that field is the caller's, and stays).
    public var signatureFieldNames: [HTTPField.Name] { fieldNames }

    /// Adds `X-Amz-Date`, the session token, `x-amz-content-sha256` (when configured) and
    /// `Authorization` to `request`, and writes its target in the spelling that is signed (see
    /// the type's documentation): send `request` as it is afterwards.
    /// - Throws: ``SigningError`` when the request has no valid authority.
    public func sign(_ request: inout AuthRequest, at date: Date) async throws {
        _ = try signInPlace(&request, at: date)
    }

    /// Computes the header signature of `request` with all intermediate results.
    /// - Throws: ``SigningError`` when the request has no valid authority.
    public func signature(for request: AuthRequest, at date: Date) throws -> SigV4Signature {
        var request = request
        let work = try signInPlace(&request, at: date)
        return SigV4Signature(
            canonicalRequest: work.canonicalRequestString, stringToSign: work.stringToSignString,
            signature: work.signatureString, signedHeaders: work.signedHeadersString, credentialScope: work.scopeString,
            authorization: request.head.headerFields[.authorization] ?? "", request: request
        )
    }

    /// Signs `request` where it is and returns the intermediate bytes.
    ///
    /// Enforces "what is signed is what is sent" (``SigV4Target``): the target is rewritten in
    /// its signed spelling first, and the canonical request is built from that string alone.
    private func signInPlace(_ request: inout AuthRequest, at date: Date) throws -> SigV4Work {
        let time = UTCTimestamp(date)
        let host = try hostField(of: request)
        request.head.path = SigV4Target.wireForm(of: request.head.path ?? "/", rule: configuration.pathCanonicalization)
        // The fields as a transport sends them: `Cookie` fields joined into one (what is signed
        // is what is sent; signed apart, they gave `cookie:a=1,b=2` for a wire `a=1; b=2`).
        var fields = request.headerFieldsForHTTP1
        fields.reserveCapacity(fields.count + 4)   // one copy, with room for the fields added here
        for name in fieldNames where fields.contains(name) { fields[name] = nil }
        fields.append(HTTPField(name: Self.amzDate, value: time.basic))
        if let token = credentials.sessionToken, configuration.sessionTokenPlacement == .signed {
            fields[Self.securityToken] = token
        }
        let payloadHash = self.payloadHash(body: request.body, fields: fields, payload: configuration.payload)
        if configuration.sendsContentSHA256 { fields[Self.contentSHA256] = String(decoding: payloadHash, as: UTF8.self) }

        let work = compute(method: request.head.method, target: request.head.path, fields: fields, host: host,
                           extraQuery: [], payloadHash: payloadHash, time: time)
        var authorization = Array("\(Self.algorithm) Credential=".utf8)
        authorization.reserveCapacity(authorization.count + 160)
        authorization.appendUTF8(credentials.accessKeyID)
        authorization.append(UInt8(ascii: "/"))
        authorization.append(contentsOf: work.text[work.scope])
        authorization.append(contentsOf: ", SignedHeaders=".utf8)
        authorization.append(contentsOf: work.canonical[work.signedHeaders])
        authorization.append(contentsOf: ", Signature=".utf8)
        authorization.append(contentsOf: work.text[work.signature])
        fields.append(HTTPField(name: .authorization, value: String(decoding: authorization, as: UTF8.self)))
        if let token = credentials.sessionToken, configuration.sessionTokenPlacement == .appendedAfterSigning {
            fields[Self.securityToken] = token
        }
        request.head.headerFields = fields
        return work
    }

    /// The `Host` value the request goes on the wire with: its `Host` field, else the one the
    /// transport derives from the authority (no default port; see `Origin.hostField`).
    func hostField(of request: AuthRequest) throws -> String {
        if let host = request.head.headerFields[Self.host] { return host }
        // Most authorities are a lower-case name without a port: the transport sends them as
        // they are, so they need no parse.
        if var authority = request.head.authority,
           authority.withUTF8({ $0.first != UInt8(ascii: ".") && $0.allSatisfy(Self.isPlainHostByte) && !$0.isEmpty }) {
            return authority
        }
        guard let origin = Origin(request.head), !origin.host.isEmpty else {
            throw SigningError.invalidRequest("the request has no valid authority (host[:port]); SigV4 signs the host")
        }
        return origin.hostField
    }

    /// `a-z`, `0-9`, `.` and `-`: a byte of a host name that needs no lower-casing or parsing.
    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    /// The payload hash of the canonical request: a caller's `X-Amz-Content-SHA256` when this
    /// configuration does not send its own, else the body's hex SHA-256 or `UNSIGNED-PAYLOAD`.
    func payloadHash(body: Data, fields: HTTPFields, payload: SigV4Configuration.Payload) -> [UInt8] {
        if !configuration.sendsContentSHA256, let supplied = fields[Self.contentSHA256] { return Array(supplied.utf8) }
        return payload == .signed ? SHA256.lowerHexDigest(of: body) : Array("UNSIGNED-PAYLOAD".utf8)
    }

    /// Builds the canonical request and the string to sign as bytes, and signs.
    func compute(
        method: HTTPRequest.Method, target: String?, fields: HTTPFields, host: String,
        extraQuery: [(name: String, value: String)], payloadHash: [UInt8], time: UTCTimestamp
    ) -> SigV4Work {
        let (path, query) = CanonicalQuery.split(target: target ?? "/")
        var canonical: [UInt8] = []
        canonical.reserveCapacity(512)
        canonical.appendUTF8(method.rawValue)
        canonical.append(UInt8(ascii: "\n"))
        SigV4Canonicalizer.appendCanonicalURI(path, rule: configuration.pathCanonicalization, to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        CanonicalQuery.append(canonicalOf: query, extra: extraQuery, to: &canonical)
        canonical.append(UInt8(ascii: "\n"))
        let signedHeaders = SigV4Canonicalizer.appendCanonicalHeaders(
            fields, host: host, excluding: unsignedHeaders, to: &canonical
        )
        canonical.append(UInt8(ascii: "\n"))
        canonical.append(contentsOf: payloadHash)

        // The string to sign, then the signature's hex, in one buffer.
        var text = Self.algorithmLine
        text.reserveCapacity(text.count + 18 + 8 + scopeSuffix.count + 66 + 64)
        text.append(contentsOf: time.basicBytes)
        text.append(UInt8(ascii: "\n"))
        let scopeStart = text.count
        text.append(contentsOf: time.dayBytes)
        text.append(contentsOf: scopeSuffix)
        let scope = scopeStart..<text.count
        text.append(UInt8(ascii: "\n"))
        text.appendLowerHex(digest: canonical.withUnsafeBytes(SHA256.digest))
        let stringToSign = 0..<text.count

        let mac = keyCache.hmac(day: time.dayBytes) { day in
            SigV4SigningKey.derive(
                secretAccessKey: credentials.secretAccessKey, day: day,
                region: configuration.region, service: configuration.service
            )
        }
        text.appendLowerHex(digest: mac.authenticationCode(for: text))
        return SigV4Work(
            canonical: canonical, signedHeaders: signedHeaders, text: text, stringToSign: stringToSign,
            signature: stringToSign.upperBound..<text.count, scope: scope
        )
    }

    /// Names the access key id, region and service; never a secret.
    public var description: String {
        "SigV4Signer(accessKeyID: \(credentials.accessKeyID), region: \(configuration.region), service: \(configuration.service))"
    }
}

/// The byte results of one SigV4 computation: two buffers and where each result lies in them.
struct SigV4Work {
    /// The canonical request.
    var canonical: [UInt8]
    /// The signed header list, within `canonical`.
    var signedHeaders: Range<Int>
    /// The string to sign, then the lower-case hex signature.
    var text: [UInt8]
    var stringToSign: Range<Int>
    var signature: Range<Int>
    /// `yyyymmdd/region/service/aws4_request`, within `text`.
    var scope: Range<Int>

    var canonicalRequestString: String { String(decoding: canonical, as: UTF8.self) }
    var stringToSignString: String { String(decoding: text[stringToSign], as: UTF8.self) }
    var signatureString: String { String(decoding: text[signature], as: UTF8.self) }
    var signedHeadersString: String { String(decoding: canonical[signedHeaders], as: UTF8.self) }
    var scopeString: String { String(decoding: text[scope], as: UTF8.self) }
}
