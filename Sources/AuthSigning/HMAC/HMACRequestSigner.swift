// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Crypto
public import Foundation
public import HTTPTypes

/// Signs requests with HMAC-SHA256 over method, path, query, timestamp, nonce and body digest.
///
/// The exact string to sign is documented on ``HMACSigningConfiguration``;
/// ``HMACRequestVerifier`` checks what this signer produces.
///
/// ```swift
/// let signer = HMACRequestSigner(keyID: "client-1", key: SymmetricKey(data: sharedSecret))
/// let middleware = SigningMiddleware(signer: signer, allowedHosts: AllowedHosts(["api.example.com"]))
/// ```
public struct HMACRequestSigner: RequestSigner, CustomStringConvertible, CustomReflectable {
    /// The key id sent in the key id field.
    public let keyID: String
    /// The header field names.
    public let configuration: HMACSigningConfiguration
    /// The HMAC already keyed: each signature then costs only its message's blocks.
    private let keyed: KeyedSHA256
    private let nonce: @Sendable () -> String

    /// Creates a signer.
    /// - Parameters:
    ///   - keyID: Names the key for the verifier; sent as is.
    ///   - key: The shared secret.
    ///   - configuration: Header field names.
    ///   - nonce: Makes a fresh nonce per signing; default 16 random bytes as hex.
    public init(
        keyID: String,
        key: SymmetricKey,
        configuration: HMACSigningConfiguration = .init(),
        nonce: @escaping @Sendable () -> String = { Encoding.randomHex() }
    ) {
        self.keyID = keyID
        self.keyed = KeyedSHA256(key: key)
        self.configuration = configuration
        self.nonce = nonce
    }

    /// The timestamp, nonce, signature, key id and body digest fields.
    public var signatureFieldNames: [HTTPField.Name] { configuration.allFields }

    /// Adds the timestamp, nonce, key id, body digest and signature fields to `request`.
    /// - Throws: ``SigningError`` when the key id or nonce is empty.
    public func sign(_ request: inout AuthRequest, at date: Date) async throws {
        guard !keyID.isEmpty else { throw SigningError.invalidConfiguration("the HMAC key id is empty") }
        let nonce = nonce()
        guard !nonce.isEmpty else { throw SigningError.invalidConfiguration("the nonce generator returned an empty nonce") }
        let timestamp = String(Int64(date.timeIntervalSince1970.rounded(.down)))
        let bodyDigest = SHA256.lowerHexDigest(of: request.body)
        let mac = keyed.authenticationCode(for: configuration.stringToSignBytes(for: request, timestamp: timestamp, nonce: nonce, bodyDigest: bodyDigest))
        var fields = request.head.headerFields
        for name in configuration.allFields where fields.contains(name) { fields[name] = nil }
        fields[configuration.timestampField] = timestamp
        fields[configuration.nonceField] = nonce
        fields[configuration.keyIDField] = keyID
        if let digestField = configuration.bodyDigestField {
            fields.append(HTTPField(name: digestField, value: String(decoding: bodyDigest, as: UTF8.self)))
        }
        fields[configuration.signatureField] = Data(mac).base64EncodedString()
        request.head.headerFields = fields
        request.markSecret(header: configuration.signatureField.canonicalName)
    }

    /// Names the key id, never the key.
    public var description: String { "HMACRequestSigner(keyID: \(keyID))" }

    /// Shows the key id and field names only, so `dump` never prints the key.
    public var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "configuration": configuration], displayStyle: .struct)
    }
}
