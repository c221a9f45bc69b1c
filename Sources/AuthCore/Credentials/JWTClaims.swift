// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The claims of a JWT payload: the registered ones typed, every other one kept as JSON.
public struct JWTClaims: Sendable, Equatable {
    /// `exp`: when the token expires.
    public var expiresAt: Date?
    /// `nbf`: when the token starts to be valid.
    public var notBefore: Date?
    /// `iat`: when the token was issued.
    public var issuedAt: Date?
    /// `sub`: the subject.
    public var subject: String?
    /// `iss`: the issuer.
    public var issuer: String?
    /// `aud`: the audiences (a single string becomes a one-element list).
    public var audience: [String]
    /// `jti`: the token id.
    public var id: String?
    /// Every claim, registered or not, as JSON values.
    public var all: [String: JSONValue]

    init(_ all: [String: JSONValue]) throws {
        self.all = all
        expiresAt = try Self.date("exp", in: all)
        notBefore = try Self.date("nbf", in: all)
        issuedAt = try Self.date("iat", in: all)
        subject = try Self.string("sub", in: all)
        issuer = try Self.string("iss", in: all)
        id = try Self.string("jti", in: all)
        switch all["aud"] {
        case nil, .null?: audience = []
        case .string(let one)?: audience = [one]
        case .array(let many)?:
            audience = try many.map {
                guard case .string(let s) = $0 else { throw JWTError.invalidClaim("aud", expected: "a string or an array of strings") }
                return s
            }
        default: throw JWTError.invalidClaim("aud", expected: "a string or an array of strings")
        }
    }

    private static func date(_ name: String, in claims: [String: JSONValue]) throws -> Date? {
        switch claims[name] {
        case nil, .null?: return nil
        case .number(let seconds)? where seconds.isFinite: return Date(timeIntervalSince1970: seconds)
        case .integer(let seconds)?: return Date(timeIntervalSince1970: Double(seconds))
        default: throw JWTError.invalidClaim(name, expected: "a number of seconds since 1970")
        }
    }

    private static func string(_ name: String, in claims: [String: JSONValue]) throws -> String? {
        switch claims[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw JWTError.invalidClaim(name, expected: "a string")
        }
    }
}

