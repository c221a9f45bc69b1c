public import Foundation

/// Reads the claims of a JSON Web Token (RFC 7519) without verifying its signature.
///
/// A client uses the claims for expiry (`exp`) when a token response did not give one; it never
/// trusts them for anything else. Malformed tokens give a ``JWTError``, never a crash.
///
/// ```swift
/// let claims = try JWT.decode(accessToken)
/// if let exp = claims.expiresAt { … }
/// ```
public enum JWT {
    /// Decodes the payload claims of a compact-serialised JWT.
    /// - Throws: ``JWTError`` naming the part that is malformed.
    public static func decode(_ token: String) throws -> JWTClaims {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw JWTError.segmentCount(segments.count) }
        guard let header = base64URLDecode(segments[0]) else { throw JWTError.invalidBase64(part: "header") }
        guard (try? JSONDecoder().decode([String: JSONValue].self, from: header)) != nil else {
            throw JWTError.invalidJSON(part: "header")
        }
        guard let payload = base64URLDecode(segments[1]) else { throw JWTError.invalidBase64(part: "payload") }
        guard base64URLDecode(segments[2]) != nil else { throw JWTError.invalidBase64(part: "signature") }
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: payload) else {
            throw JWTError.invalidJSON(part: "payload")
        }
        return try JWTClaims(object)
    }

    /// Decodes unpadded or padded base64url; nil when the text is not base64url.
    public static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if base64.contains(where: { $0 == "=" }) {
            base64 = String(base64.prefix { $0 != "=" })
        }
        switch base64.count % 4 {
        case 1: return nil
        case 2: base64 += "=="
        case 3: base64 += "="
        default: break
        }
        return Data(base64Encoded: base64)
    }
}

/// Why a JWT could not be read.
public struct JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A readable cause; never the token.
    public let description: String
    /// The token did not have three dot-separated segments.
    public static func segmentCount(_ count: Int) -> JWTError {
        JWTError(description: "a JWT has 3 segments separated by dots; this one has \(count)")
    }
    /// A segment was not base64url.
    public static func invalidBase64(part: String) -> JWTError {
        JWTError(description: "the JWT \(part) is not valid base64url")
    }
    /// A segment was not a JSON object.
    public static func invalidJSON(part: String) -> JWTError {
        JWTError(description: "the JWT \(part) is not a JSON object")
    }
    /// A registered claim had the wrong type.
    public static func invalidClaim(_ name: String, expected: String) -> JWTError {
        JWTError(description: "the JWT claim '\(name)' must be \(expected)")
    }
}
