// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

// One record kind, `profile-token`, whose stored format changed twice:
// v1 `{"token": …}`, v2 `{"accessToken": …}`, v3 `{"accessToken": …, "scopes": […]}`.

/// The current (v3) type.
struct ProfileToken: Credential {
    static let kind = "profile-token"
    static let formatVersion = 3
    var accessToken: Secret
    var scopes: [String]
    var expiresAt: Date? { nil }
    /// The tests only store and load it; never sent.
    func authorize(_ request: inout AuthRequest) {}
    var description: String { "ProfileToken(scopes: \(scopes))" }
}

/// What version 1 of the program wrote.
struct ProfileTokenV1: Credential {
    static let kind = "profile-token"
    static let formatVersion = 1
    var token: Secret
    var expiresAt: Date? { nil }
    func authorize(_ request: inout AuthRequest) {}
    var description: String { "ProfileTokenV1" }
}

/// What version 2 of the program wrote.
struct ProfileTokenV2: Credential {
    static let kind = "profile-token"
    static let formatVersion = 2
    var accessToken: Secret
    var expiresAt: Date? { nil }
    func authorize(_ request: inout AuthRequest) {}
    var description: String { "ProfileTokenV2" }
}

enum ProfileSteps {
    struct NotAnObject: Error {}

    static func object(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw NotAnObject() }
        return object
    }

    /// v1 → v2: `token` is renamed `accessToken`.
    @Sendable static func renameToken(_ data: Data) throws -> Data {
        var object = try object(data)
        guard let token = object.removeValue(forKey: "token") else { throw NotAnObject() }
        object["accessToken"] = token
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// v2 → v3: `scopes` is added, `["read"]` for records that predate it.
    @Sendable static func addScopes(_ data: Data) throws -> Data {
        var object = try object(data)
        guard object["accessToken"] != nil else { throw NotAnObject() }
        object["scopes"] = ["read"]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
