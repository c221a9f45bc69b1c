// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The errors AuthSigning throws: a request that cannot be signed, an RFC 9421 signature or an
/// HMAC-signed request that is refused, a failed Content-Digest check, or a structured field
/// (RFC 8941) that cannot be parsed.
///
/// Compare codes: `error.code == .invalidRequest`, `error.code == .replayedNonce`. The
/// ``message`` names what was wrong (the request, configuration, label, field, component or
/// parameter concerned); it never contains a key, a secret, a signature, a nonce nor a digest
/// value, and never repeats a structured field's content.
public struct SigningError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public typealias Code = ErrorCode<SigningError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The lower-level error (such as an `.invalidStructuredField` error), when this one wraps
    /// another.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `SigningError.code: message (caused by: …)`.
    public var description: String {
        var text = "SigningError.\(code): \(message)"
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

/// A structured field value that could not be parsed: now ``SigningError``

extension SigningError {
    /// The request lacks something the signer needs.
    public static func invalidRequest(_ message: String) -> Self { Self(code: .invalidRequest, message: message) }
    /// The configuration is not usable.
    public static func invalidConfiguration(_ message: String) -> Self { Self(code: .invalidConfiguration, message: message) }
    /// Something asked for is not supported.
    public static func unsupported(_ message: String) -> Self { Self(code: .unsupported, message: message) }
    /// A structured field value is not valid.
    static func invalidStructuredField(_ message: String) -> Self { Self(code: .invalidStructuredField, message: message) }
}

extension ErrorCode where Domain == SigningError {
    // Signing a request.

    /// The request lacks a part the signer needs (scheme, authority, path, a covered field).
    public static var invalidRequest: Self { Self("invalidRequest") }
    /// The signer's configuration is not usable (bad header name, empty key id, bad key).
    public static var invalidConfiguration: Self { Self("invalidConfiguration") }
    /// A covered component or parameter is not supported by this implementation.
    public static var unsupported: Self { Self("unsupported") }
    /// The cryptographic operation failed.
    public static var crypto: Self { Self("crypto") }

    // Verifying a signed request (RFC 9421 message signatures and the HMAC scheme).

    /// No key is known for the key id (`keyid`, or the HMAC key id field).
    public static var unknownKey: Self { Self("unknownKey") }
    /// The signature is malformed or does not verify.
    public static var badSignature: Self { Self("badSignature") }
    /// The signature is too old: an RFC 9421 `expires` has passed or `created` is older than the
    /// maximum age, or an HMAC timestamp is further from the verifier's clock than the tolerance
    /// allows.
    public static var expired: Self { Self("expired") }
    /// The nonce was already used with this key (or, for HMAC, is too old to be checked).
    public static var replayedNonce: Self { Self("replayedNonce") }

    // RFC 9421 message signatures and Content-Digest.

    /// There is no `Signature-Input` field.
    public static var missingSignatureInput: Self { Self("missingSignatureInput") }
    /// `Signature-Input` is not a valid structured dictionary of inner lists of strings.
    public static var malformedSignatureInput: Self { Self("malformedSignatureInput") }
    /// There is no `Signature` field, or it has no member for the label.
    public static var missingSignature: Self { Self("missingSignature") }
    /// `Signature` is not a valid structured dictionary of byte sequences.
    public static var malformedSignature: Self { Self("malformedSignature") }
    /// The label asked for is not in `Signature-Input`.
    public static var labelNotFound: Self { Self("labelNotFound") }
    /// A signature parameter has the wrong type or a missing required value.
    public static var invalidParameter: Self { Self("invalidParameter") }
    /// The `alg` parameter does not match the key's algorithm.
    public static var algorithmMismatch: Self { Self("algorithmMismatch") }
    /// A component identifier or parameter is not supported (`;sf`, `;key`, `;tr`, unknown `@` names).
    public static var unsupportedComponent: Self { Self("unsupportedComponent") }
    /// A component identifier is malformed or listed twice.
    public static var invalidComponent: Self { Self("invalidComponent") }
    /// A covered component is not present in the message.
    public static var componentNotFound: Self { Self("componentNotFound") }
    /// The policy requires a component the signature does not cover.
    public static var requiredComponentNotCovered: Self { Self("requiredComponentNotCovered") }
    /// `created` is required but absent.
    public static var missingCreated: Self { Self("missingCreated") }
    /// `created` is later than the verifier's clock allows.
    public static var createdInFuture: Self { Self("createdInFuture") }
    /// The `tag` is not the one the policy requires.
    public static var tagMismatch: Self { Self("tagMismatch") }
    /// `content-digest` is covered but the field is missing.
    public static var missingContentDigest: Self { Self("missingContentDigest") }
    /// The Content-Digest field is malformed or names no supported algorithm.
    public static var malformedContentDigest: Self { Self("malformedContentDigest") }
    /// The body does not match the Content-Digest field.
    public static var contentDigestMismatch: Self { Self("contentDigestMismatch") }
    /// A key could not be used (wrong size, wrong kind).
    public static var invalidKey: Self { Self("invalidKey") }

    // The HMAC scheme (``HMACRequestVerifier``).

    /// A required field (timestamp, nonce, key id or signature) is absent or empty.
    public static var missingHeader: Self { Self("missingHeader") }
    /// The timestamp field is not a whole number of seconds.
    public static var badTimestamp: Self { Self("badTimestamp") }
    /// The body digest field does not match the body received.
    public static var bodyDigestMismatch: Self { Self("bodyDigestMismatch") }

    // Structured fields (RFC 8941).

    /// A structured field value could not be parsed or serialized.
    public static var invalidStructuredField: Self { Self("invalidStructuredField") }
}
