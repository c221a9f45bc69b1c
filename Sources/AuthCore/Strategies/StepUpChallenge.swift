// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

/// What a resource asked for when it refused a token that is valid but not enough: a stronger
/// or more recent sign-in (RFC 9470 `insufficient_user_authentication`, a `401`), or more scope
/// (RFC 6750 §3.1 `insufficient_scope`, a `403`), read from its `Bearer` challenge.
///
/// ```
/// WWW-Authenticate: Bearer error="insufficient_user_authentication",
///   error_description="a stronger sign-in is required", acr_values="urn:mfa", max_age=300
/// ```
///
/// It is the underlying error of an `AuthError` ``ErrorCode/stepUpRequired`` and travels with
/// ``AuthEvent/stepUpRequired(_:_:)``; AuthOAuth2's `OAuth2Client.stepUp` signs in again at the
/// level it names.
public struct StepUpChallenge: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the token was not enough.
    public enum Reason: String, Sendable, Equatable {
        /// `insufficient_user_authentication` (RFC 9470): the sign-in's `acr` or age.
        case userAuthentication = "insufficient_user_authentication"
        /// `insufficient_scope` (RFC 6750 §3.1): the token's scope.
        case scope = "insufficient_scope"
    }

    /// Why the token was not enough.
    public var reason: Reason
    /// `acr_values`: the authentication context classes the resource accepts, in its order of
    /// preference (empty when it named none).
    public var acrValues: [String]
    /// `max_age`: how many seconds ago the user may at most have signed in.
    public var maxAge: Int?
    /// `scope`: the scopes the resource needs (empty when it named none).
    public var scope: [String]
    /// The HTTP status it came with.
    public var status: Int

    /// Creates a challenge.
    public init(reason: Reason, acrValues: [String] = [], maxAge: Int? = nil, scope: [String] = [], status: Int) {
        self.reason = reason
        self.acrValues = acrValues
        self.maxAge = maxAge
        self.scope = scope
        self.status = status
    }

    /// `insufficient_user_authentication (401): acr_values …, max_age …` (no token, nothing
    /// secret: the parameters are the resource's public requirements).
    public var description: String {
        var text = "\(reason.rawValue) (\(status))"
        if !acrValues.isEmpty { text += ": acr_values \(acrValues.joined(separator: " "))" }
        if let maxAge { text += "\(acrValues.isEmpty ? ":" : ",") max_age \(maxAge)" }
        if !scope.isEmpty { text += ": scope \(scope.joined(separator: " "))" }
        return text
    }

    /// The challenge of a `401` whose `Bearer` or `DPoP` challenge says
    /// `insufficient_user_authentication`, or of a `403` whose `Bearer` or `DPoP` challenge says
    /// `insufficient_scope`; nil for any other answer.
    ///
    /// A `403` without any `WWW-Authenticate` field whose JSON body says
    /// `"error": "insufficient_scope"` counts too, with no scope named: Authlib's resource
    /// protector answers so (RFC 6750 §3 asks for the challenge field).
    public init?(_ response: AuthResponse) {
        guard let found = Self.read(response) else { return nil }
        self = found
    }

    private static func read(_ response: AuthResponse) -> StepUpChallenge? {
        let status = response.status.code
        guard status == 401 || status == 403 else { return nil }
        for parameters in response.head.headerFields[values: .wwwAuthenticate].flatMap(tokenChallenges) {
            guard let error = parameters["error"], let reason = Reason(rawValue: error) else { continue }
            guard (reason == .userAuthentication && status == 401) || (reason == .scope && status == 403) else { continue }
            let words = { (name: String) in parameters[name].map { $0.split(separator: " ").map(String.init) } ?? [] }
            return StepUpChallenge(
                reason: reason, acrValues: words("acr_values"), maxAge: parameters["max_age"].flatMap { Int($0) }.map { max($0, 0) },
                scope: words("scope"), status: status)
        }
        guard status == 403, response.head.headerFields[.wwwAuthenticate] == nil, response.body.count <= 65_536,
              let body = try? JSONDecoder().decode(ErrorBody.self, from: response.body), body.error == Reason.scope.rawValue else { return nil }
        return StepUpChallenge(reason: .scope, status: status)
    }

    /// The `error` member of a JSON error body.
    private struct ErrorBody: Decodable { let error: String }

    /// The auth-params of each challenge for an access token in a `WWW-Authenticate` value
    /// (RFC 9110 §11.6.1: `scheme name=token, name="quoted \" string"`), in order, names
    /// lowercased: the `Bearer` scheme's (RFC 6750 §3) and the `DPoP` scheme's, under which a
    /// DPoP-bound token is sent and refused (RFC 9449 §7.1, with the same error codes). Other
    /// schemes' challenges are skipped. A value that is not well formed yields what was read
    /// before the fault.
    static func tokenChallenges(_ value: String) -> [[String: String]] {
        var scanner = ChallengeScanner(Array(value.utf8))
        var inTokenChallenge = false
        var found: [[String: String]] = []
        while let token = scanner.token() {
            if scanner.skipping(" \t"), scanner.peek == UInt8(ascii: "=") {
                // name=value: a parameter of the current challenge.
                scanner.advance()
                if scanner.peek == UInt8(ascii: "=") || scanner.peek == nil || scanner.peek == UInt8(ascii: ",") {
                    // A token68 ending in `=` padding (`Negotiate abc==`), not a parameter.
                    scanner.skip("=")
                    scanner.skip(" \t,")
                    continue
                }
                scanner.skip(" \t")
                guard let parameterValue = scanner.peek == UInt8(ascii: "\"") ? scanner.quoted() : scanner.token() else { break }
                if inTokenChallenge, found[found.count - 1][token.lowercased()] == nil { found[found.count - 1][token.lowercased()] = parameterValue }
            } else {
                // A new challenge's scheme (possibly followed by a token68, which is skipped).
                inTokenChallenge = ["bearer", "dpop"].contains(token.lowercased())
                if inTokenChallenge { found.append([:]) }
                if !inTokenChallenge, scanner.peekToken() != nil, !scanner.nextTokenIsParameter() {
                    scanner.skip(" \t")
                    _ = scanner.token()
                }
            }
            scanner.skip(" \t,")
        }
        return found
    }
}

/// Reads the tokens and quoted strings of a `WWW-Authenticate` value.
private struct ChallengeScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    mutating func advance() { index += 1 }

    /// Skips any of `characters`; true (for chaining).
    @discardableResult
    mutating func skipping(_ characters: String) -> Bool {
        skip(characters)
        return true
    }

    mutating func skip(_ characters: String) {
        let set = Set(characters.utf8)
        while let byte = peek, set.contains(byte) { index += 1 }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~/:".utf8.contains(byte)
        }
    }

    /// A token (or token68's characters without its trailing `=`), or nil at none.
    mutating func token() -> String? {
        let start = index
        while let byte = peek, Self.isTokenByte(byte) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// The next token without consuming it.
    func peekToken() -> String? {
        var copy = self
        copy.skip(" \t")
        return copy.token()
    }

    /// Whether the next token is a parameter's name (followed by `=`).
    func nextTokenIsParameter() -> Bool {
        var copy = self
        copy.skip(" \t")
        _ = copy.token()
        copy.skip(" \t")
        return copy.peek == UInt8(ascii: "=")
    }

    /// A quoted string with its escapes resolved, or nil when it is not closed.
    mutating func quoted() -> String? {
        advance()
        var value: [UInt8] = []
        while let byte = peek {
            advance()
            if byte == UInt8(ascii: "\"") { return String(decoding: value, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = peek else { return nil }
                advance()
                value.append(escaped)
            } else {
                value.append(byte)
            }
        }
        return nil
    }
}
