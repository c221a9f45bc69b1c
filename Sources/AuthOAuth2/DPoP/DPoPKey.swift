// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Crypto
public import Foundation

/// An account's DPoP key (RFC 9449): a P-256 key pair made on this machine, kept in the vault
/// beside the account's tokens (sealed by the vault's cipher when one is configured), never sent
/// anywhere but as a public key in proofs.
public struct DPoPKey: Credential {
    /// The record kind.
    public static let kind = "dpop-key"
    /// The vault item the key is kept under, beside the account's credential.
    public static let item = "dpop-key"

    /// The private key's raw representation, base64.
    let raw: Secret

    /// A new key.
    public init() {
        raw = Secret(P256.Signing.PrivateKey().rawRepresentation.base64EncodedString())
    }

    /// The signing key.
    func privateKey() throws -> P256.Signing.PrivateKey {
        guard let data = Data(base64Encoded: raw.reveal) else {
            throw AuthError(code: .decoding, message: "the stored DPoP key is not base64")
        }
        return try P256.Signing.PrivateKey(rawRepresentation: data)
    }

    /// Nothing: the key signs proofs (``DPoP``); it is not put on requests itself.
    public func authorize(_ request: inout AuthRequest) {}

    /// Never: the key is kept until the account is signed out everywhere.
    public var expiresAt: Date? { nil }

    /// The algorithm only.
    public var description: String { "DPoPKey(P-256)" }

    /// The account's key: the one in the vault, or a new one, stored there first.
    /// - Throws: The vault's errors (`.storage`).
    public static func forAccount(_ account: AccountKey, in vault: CredentialVault) async throws -> DPoPKey {
        if let stored = try await vault.load(DPoPKey.self, for: account, item: item) { return stored }
        let key = DPoPKey()
        try await vault.save(key, for: account, item: item)
        return key
    }
}
