// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Reads the claims of a JSON Web Token (RFC 7519) without verifying its signature.
///
/// A client uses the claims for expiry (`exp`) when a token response did not give one; it never
/// trusts them for anything else. Malformed tokens give a ``JWTError``, never a crash.
///
/// Tokens come from servers, so decoding is strict and its cost is linear in the token's length:
/// - a token longer than ``maximumTokenSize`` bytes is refused before it is read;
/// - arrays and objects nested deeper than ``maximumDepth`` in the header or the claims are refused;
/// - a header or claims object (at any level) that names a member twice is refused, as RFC 7519 §4
///   and RFC 7515 §4 allow, rather than keeping one of the values;
/// - each segment must be base64url without padding (RFC 7515 §2): `=`, `+`, `/`, whitespace and
///   non-zero trailing bits are refused, so each segment has exactly one accepted spelling;
/// - integers beyond ±2^53 keep their exact value (``JSONValue/integer(_:)``).
///
/// ```swift
/// let claims = try JWT.decode(accessToken)
/// if let exp = claims.expiresAt { print("expires at \(exp)") }
/// ```
public enum JWT {
    /// The longest token ``decode(_:)`` reads, in UTF-8 bytes: 64 KiB, far above real access and
    /// id tokens (a few KiB) and below sizes that cost noticeable time.
    public static let maximumTokenSize = 65_536

    /// The deepest nesting of arrays and objects ``decode(_:)`` reads in the header or the claims,
    /// counting the header or claims object itself as 1.
    public static let maximumDepth = 64

    /// Decodes the payload claims of a compact-serialised JWT.
    /// - Throws: ``JWTError`` naming the part that is malformed, or the limit that was exceeded.
    public static func decode(_ token: String) throws -> JWTClaims {
        guard token.utf8.count <= maximumTokenSize else { throw JWTError.tooLarge(limit: maximumTokenSize) }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw JWTError.segmentCount(segments.count) }
        guard let header = base64URLDecode(segments[0]) else { throw JWTError.invalidBase64(part: "header") }
        _ = try object(header, part: "header")
        guard let payload = base64URLDecode(segments[1]) else { throw JWTError.invalidBase64(part: "payload") }
        guard base64URLDecode(segments[2]) != nil else { throw JWTError.invalidBase64(part: "signature") }
        return try JWTClaims(object(payload, part: "payload"))
    }

    private static func object(_ data: Data, part: String) throws(JWTError) -> [String: JSONValue] {
        do throws(JSONReader.Failure) {
            return try JSONReader.object([UInt8](data), maximumDepth: maximumDepth)
        } catch {
            switch error {
            case .invalid: throw .invalidJSON(part: part)
            case .tooDeep: throw .tooDeep(part: part, limit: maximumDepth)
            case .duplicateMember: throw .duplicateMember(part: part)
            }
        }
    }

    /// Decodes base64url without padding (RFC 7515 §2); nil when the text is anything else.
    ///
    /// Refuses `=` padding, the standard-base64 characters `+` and `/`, whitespace, a length of
    /// 1 modulo 4, and non-zero unused bits in the last character (the package's one base64url
    /// decoder, `Base64URL.decode(_:)`).
    public static func base64URLDecode(_ text: Substring) -> Data? {
        Base64URL.decode(text)
    }
}

/// Why a JWT could not be read.
public struct JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A readable cause; never the token or any part of its content.
    public let description: String
    /// The token did not have three dot-separated segments.
    public static func segmentCount(_ count: Int) -> JWTError {
        JWTError(description: "a JWT has 3 segments separated by dots; this one has \(count)")
    }
    /// A segment was not base64url without padding.
    public static func invalidBase64(part: String) -> JWTError {
        JWTError(description: "the JWT \(part) is not valid base64url (unpadded, '-' and '_', RFC 7515 §2)")
    }
    /// A segment was not a JSON object.
    public static func invalidJSON(part: String) -> JWTError {
        JWTError(description: "the JWT \(part) is not a JSON object")
    }
    /// A registered claim had the wrong type.
    public static func invalidClaim(_ name: String, expected: String) -> JWTError {
        JWTError(description: "the JWT claim '\(name)' must be \(expected)")
    }
    /// The token was longer than ``JWT/maximumTokenSize``.
    public static func tooLarge(limit: Int) -> JWTError {
        JWTError(description: "the JWT is longer than \(limit) bytes, the most JWT.decode reads (JWT.maximumTokenSize)")
    }
    /// The header or the claims nested arrays and objects deeper than ``JWT/maximumDepth``.
    public static func tooDeep(part: String, limit: Int) -> JWTError {
        JWTError(description: "the JWT \(part) nests arrays and objects more than \(limit) levels deep, the most JWT.decode reads (JWT.maximumDepth)")
    }
    /// The header or the claims named an object member twice (RFC 7515 §4, RFC 7519 §4).
    public static func duplicateMember(part: String) -> JWTError {
        JWTError(description: "the JWT \(part) names an object member twice; member names must be unique (RFC 7519 §4)")
    }
}
