// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

/// The claims an OpenID Connect provider's userinfo endpoint returns about the user of an
/// access token (OpenID Connect Core 1.0 §5.3.2). ``OAuth2Client/userInfo(for:)`` returns them
/// once `sub` matched the ID token's.
public struct UserInfo: Sendable, Equatable, Decodable {
    /// `sub`: the user at the provider; always present.
    public var subject: String
    /// `name`.
    public var name: String?
    /// `email`.
    public var email: String?
    /// `email_verified`.
    public var emailVerified: Bool?
    /// Every claim of the answer, the ones above included, as JSON values.
    public var claims: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case subject = "sub", name, email, emailVerified = "email_verified"
    }

    /// Decodes the answer: a JSON object with at least a string `sub`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        subject = try c.decode(String.self, forKey: .subject)
        name = try? c.decodeIfPresent(String.self, forKey: .name)
        email = try? c.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try? c.decodeIfPresent(Bool.self, forKey: .emailVerified)
        claims = try [String: JSONValue](from: decoder)
    }
}
