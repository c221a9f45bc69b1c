// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// A stable device id for an account, kept in the store so that it survives restarts.
///
/// Guest sessions are tied to it (`X-Device-ID`). It is created once, on first use.
public struct DeviceIdentity: Credential {
    /// `device-id`.
    public static let kind = "device-id"
    /// The item the id is stored under.
    public static let item = "device-id"
    /// The id.
    public var id: String
    /// Creates an identity.
    public init(id: String) { self.id = id }
    /// Device ids do not expire.
    public var expiresAt: Date? { nil }
    /// Sets `X-Device-ID`.
    public func authorize(_ request: inout AuthRequest) {
        request.head.headerFields[.deviceID] = id
    }
    /// The id is not a secret.
    public var description: String { "DeviceIdentity(\(id))" }

    /// The stored device id of `account`, created and stored when there is none.
    public static func loadOrCreate(for account: AccountKey, in vault: CredentialVault) async throws -> DeviceIdentity {
        if let existing = try await vault.load(DeviceIdentity.self, for: account, item: item) { return existing }
        let identity = DeviceIdentity(id: UUID().uuidString.lowercased())
        try await vault.save(identity, for: account, item: item)
        return identity
    }
}
