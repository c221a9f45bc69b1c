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

/// The header field names and canonical string of AuthKit's HMAC-SHA256 request signatures.
///
/// The string to sign is six lines joined by `"\n"` (LF, no trailing newline):
/// ```text
/// METHOD                 the request method as sent, e.g. POST
/// PATH                   the path as sent, without the query; "/" when empty
/// CANONICAL-QUERY        see below; empty line when there is no query
/// TIMESTAMP              Unix time in whole seconds, decimal, as in the timestamp field
/// NONCE                  the nonce field's value (32 lower-case hex digits by default)
/// BODY-SHA256            lower-case hex SHA-256 of the body bytes (of "" when empty)
/// ```
/// The canonical query splits the query on `&` and each pair on its first `=`, percent-decodes
/// names and values, percent-encodes them again with RFC 3986 rules (upper-case hex, only
/// `A-Z a-z 0-9 - . _ ~` unescaped), sorts the pairs by name then value (byte order) and joins
/// them as `name=value&…`. The signature field holds the standard base64 of
/// HMAC-SHA256(key, UTF-8 of the string to sign). The key id field names the key.
public struct HMACSigningConfiguration: Sendable {
    /// The field holding the Unix timestamp; default `X-Timestamp`.
    public var timestampField: HTTPField.Name
    /// The field holding the nonce; default `X-Nonce`.
    public var nonceField: HTTPField.Name
    /// The field holding the base64 signature; default `X-Signature`.
    public var signatureField: HTTPField.Name
    /// The field naming the key; default `X-Key-Id`.
    public var keyIDField: HTTPField.Name
    /// A field holding the hex SHA-256 of the body, so a verifier can tell a changed body from a
    /// bad signature; default `X-Content-SHA256`, `nil` to send none.
    public var bodyDigestField: HTTPField.Name?

    /// Creates a configuration; every name has the default described on its property.
    public init(
        timestampField: HTTPField.Name = .literal("X-Timestamp"),
        nonceField: HTTPField.Name = .literal("X-Nonce"),
        signatureField: HTTPField.Name = .literal("X-Signature"),
        keyIDField: HTTPField.Name = .literal("X-Key-Id"),
        bodyDigestField: HTTPField.Name? = .literal("X-Content-SHA256")
    ) {
        self.timestampField = timestampField
        self.nonceField = nonceField
        self.signatureField = signatureField
        self.keyIDField = keyIDField
        self.bodyDigestField = bodyDigestField
    }

    /// Every field the signer writes.
    public var allFields: [HTTPField.Name] {
        [timestampField, nonceField, signatureField, keyIDField] + (bodyDigestField.map { [$0] } ?? [])
    }

    /// The string to sign for `request` (see the type's documentation for its exact form).
    /// - Parameters:
    ///   - request: The request; its method, path, query and body are read.
    ///   - timestamp: The timestamp field's value.
    ///   - nonce: The nonce field's value.
    public func stringToSign(for request: AuthRequest, timestamp: String, nonce: String) -> String {
        let bytes = stringToSignBytes(for: request, timestamp: timestamp, nonce: nonce, bodyDigest: SHA256.lowerHexDigest(of: request.body))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of the string to sign, with the body digest already computed: built once into
    /// one buffer, the query canonicalized as bytes.
    func stringToSignBytes(for request: AuthRequest, timestamp: String, nonce: String, bodyDigest: [UInt8]) -> [UInt8] {
        let (path, query) = CanonicalQuery.split(target: request.head.path ?? "/")
        var out: [UInt8] = []
        out.reserveCapacity(160 + path.utf8.count + (query?.utf8.count ?? 0))
        out.appendUTF8(request.head.method.rawValue)
        out.append(UInt8(ascii: "\n"))
        if path.isEmpty { out.append(UInt8(ascii: "/")) } else { out.append(contentsOf: path.utf8) }
        out.append(UInt8(ascii: "\n"))
        CanonicalQuery.append(canonicalOf: query, extra: [], to: &out)
        out.append(UInt8(ascii: "\n"))
        out.appendUTF8(timestamp)
        out.append(UInt8(ascii: "\n"))
        out.appendUTF8(nonce)
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: bodyDigest)
        return out
    }

    /// Lower-case hex SHA-256 of `body`.
    public static func bodyDigest(_ body: Data) -> String {
        String(decoding: SHA256.lowerHexDigest(of: body), as: UTF8.self)
    }
}
