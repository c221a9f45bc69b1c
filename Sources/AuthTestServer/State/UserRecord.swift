// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A registered user as the server stores it. The password is only kept as a bcrypt hash.
public struct UserRecord: Sendable, Equatable {
    /// Stable user id (a UUID string); the `sub` of the user's tokens.
    public let id: String
    /// The unique user name.
    public let username: String
    /// The bcrypt hash of the password.
    public let passwordHash: String
    /// When the user registered (server clock).
    public let createdAt: Date
    /// Free-form values that extra route groups attach to a user (e.g. an MFA enrolment).
    public var attributes: [String: String]

    /// Creates a record.
    /// - Parameters:
    ///   - id: User id.
    ///   - username: User name.
    ///   - passwordHash: bcrypt hash of the password.
    ///   - createdAt: Registration time.
    ///   - attributes: Extension values.
    public init(id: String, username: String, passwordHash: String, createdAt: Date, attributes: [String: String] = [:]) {
        self.id = id
        self.username = username
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.attributes = attributes
    }
}

extension UserRecord: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Id and name; never the hash or the attributes.
    public var description: String { "UserRecord(id: \(id), username: \(username))" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the password hash or attributes, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "username": username], displayStyle: .struct)
    }
}
