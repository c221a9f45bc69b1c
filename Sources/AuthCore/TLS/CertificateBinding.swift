// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Crypto

/// Certificate-bound access tokens (RFC 8705 §3): a token whose `cnf.x5t#S256` claim names the
/// client certificate it may be presented with.
///
/// A transport that can present client certificates reads the binding of a request's bearer token
/// with ``requiredThumbprint(authorization:)`` and sends the request only over a connection that
/// presents that certificate; a transport that cannot refuses a bound token. Either way a bound
/// token never leaves over a connection without its certificate (``AuthError`` code
/// `.certificateBindingUnmet`, nothing sent).
///
/// Only a JWT access token shows its binding; an opaque token is sent as any other, since the
/// client cannot see whether the server bound it.
public enum CertificateBinding {
    /// The RFC 8705 thumbprint of a DER certificate: its SHA-256 digest in base64url, without
    /// padding.
    public static func thumbprint(ofCertificate der: some DataProtocol) -> String {
        Base64URL.encode(SHA256.hash(data: der))
    }

    /// The `cnf.x5t#S256` thumbprint of the token in an `Authorization: Bearer` field value, or
    /// nil when it has none (another scheme, an opaque token, a JWT without the claim).
    ///
    /// A JWT whose `cnf` is not an object (RFC 7800 §3.1), or whose `cnf.x5t#S256` is present but
    /// not a string, returns an empty thumbprint, which no certificate matches: a malformed
    /// binding refuses the token rather than dropping the binding.
    ///
    /// Transports ask this for every request that carries a bearer token, so it reads bytes and
    /// parses the claims only when they can hold the binding: a JSON object has a member `cnf`
    /// only if its text holds `cnf`, or a `\` escaping one of its letters. Any other payload is
    /// decoded from base64url and searched, not parsed.
    public static func requiredThumbprint(authorization value: String) -> String? {
        let utf8 = value.utf8
        guard utf8.count > 7, utf8.prefix(7).elementsEqual("bearer ".utf8, by: { asciiLowercased($0) == $1 }) else { return nil }
        let rest = utf8.dropFirst(7)
        guard let start = rest.firstIndex(where: { !isBlank($0) }), let end = rest.lastIndex(where: { !isBlank($0) }) else { return nil }
        let token = utf8[start...end]
        // Two dots or it is no JWT: checked before anything is decoded.
        let dot = UInt8(ascii: ".")
        guard let first = token.firstIndex(of: dot), let last = token.lastIndex(of: dot), first != last,
              token[token.index(after: first)..<last].firstIndex(of: dot) == nil,
              let payload = Base64URL.decode(Substring(token[token.index(after: first)..<last]))
        else { return nil }
        guard payload.range(of: Data("cnf".utf8)) != nil || payload.contains(UInt8(ascii: "\\")) else { return nil }
        guard let claims = try? JWT.decode(String(Substring(token))), let confirmation = claims.all["cnf"] else { return nil }
        guard case .object(let members) = confirmation else { return "" }
        guard let bound = members["x5t#S256"] else { return nil }
        guard case .string(let thumbprint) = bound else { return "" }
        return thumbprint
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
