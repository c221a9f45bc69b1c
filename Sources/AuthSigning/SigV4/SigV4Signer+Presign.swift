// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

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
    /// The path and query are written in the spelling that is signed (as ``sign(_:at:)`` does;
    /// see ``SigV4Signer``), then the signature's query items are appended: use the returned
    /// request's target as it is.
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
        let host = try hostField(of: request)
        var request = request
        request.head.headerFields = request.headerFieldsForHTTP1  // as sent: `Cookie` fields joined
        request.head.path = SigV4Target.wireForm(of: request.head.path ?? "/", rule: configuration.pathCanonicalization)
        removeSignature(from: &request)
        var canonicalHeaders: [UInt8] = []
        let signedRange = SigV4Canonicalizer.appendCanonicalHeaders(
            request.head.headerFields, host: host, excluding: unsignedHeaders, to: &canonicalHeaders
        )
        let signedHeaders = String(decoding: canonicalHeaders[signedRange], as: UTF8.self)
        var added: [(name: String, value: String)] = [
            ("X-Amz-Algorithm", Self.algorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(time.day)\(String(decoding: scopeSuffix, as: UTF8.self))"),
            ("X-Amz-Date", time.basic),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", signedHeaders),
        ]
        let token = credentials.sessionToken.map { (name: "X-Amz-Security-Token", value: $0) }
        if let token, configuration.sessionTokenPlacement == .signed { added.append(token) }
        let payloadHash = self.payloadHash(body: request.body, fields: request.head.headerFields, payload: payload)
        let result = compute(
            method: request.head.method, target: request.head.path, fields: request.head.headerFields, host: host,
            extraQuery: added, payloadHash: payloadHash, time: time
        )
        let signature = result.signatureString

        added.append(("X-Amz-Signature", signature))
        if let token, configuration.sessionTokenPlacement == .appendedAfterSigning { added.append(token) }
        let (path, query) = CanonicalQuery.split(target: request.head.path ?? "/")
        var addedQuery: [UInt8] = []
        for (index, item) in added.enumerated() {
            if index > 0 { addedQuery.append(UInt8(ascii: "&")) }
            addedQuery.appendEncoding(of: item.name.utf8)
            addedQuery.append(UInt8(ascii: "="))
            addedQuery.appendEncoding(of: item.value.utf8)
        }
        let existing = query.map { $0.isEmpty ? "" : "\($0)&" } ?? ""
        request.head.path = "\(path.isEmpty ? "/" : path)?\(existing)\(String(decoding: addedQuery, as: UTF8.self))"
        return SigV4Signature(
            canonicalRequest: result.canonicalRequestString, stringToSign: result.stringToSignString, signature: signature,
            signedHeaders: signedHeaders, credentialScope: result.scopeString,
            authorization: "", request: request
        )
    }
}
