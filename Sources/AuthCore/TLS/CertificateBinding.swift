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
/// token never leaves over a connection without its certificate (``TLSTrustError`` code
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
    /// A JWT whose `cnf.x5t#S256` is present but not a string returns an empty thumbprint, which
    /// no certificate matches: a malformed binding refuses the token rather than dropping the
    /// binding.
    public static func requiredThumbprint(authorization value: String) -> String? {
        guard value.utf8.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        let token = value.dropFirst(7).trimmingCharacters(in: .whitespaces)
        // Two dots or it is no JWT: checked before anything is decoded.
        guard token.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 else { return nil }
        guard let claims = try? JWT.decode(token), let confirmation = claims.all["cnf"] else { return nil }
        guard case .object(let members) = confirmation, let bound = members["x5t#S256"] else { return nil }
        guard case .string(let thumbprint) = bound else { return "" }
        return thumbprint
    }
}
