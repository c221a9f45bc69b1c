// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct CredentialVaultTests {
    let tokens = BearerTokenSet(accessToken: "plain-access-token-value", refreshToken: "plain-refresh-token-value", expiresAt: Date(timeIntervalSince1970: 1_900_000_000), scope: "read write")

    @Test func sealedBytesDoNotContainThePlaintext() async throws {
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()))
        try await vault.save(tokens, for: alice)
        let raw = try #require(try await store.get(alice.item(CredentialVault.credentialItem)))
        let bytes = String(decoding: raw.payload, as: UTF8.self)
        #expect(!bytes.contains("plain-access-token-value"))
        #expect(!bytes.contains("plain-refresh-token-value"))
        #expect(raw.kind == "bearer")
        #expect(raw.expiresAt == tokens.expiresAt)
        #expect(try await vault.load(BearerTokenSet.self, for: alice) == tokens)
    }

    @Test func withoutCipherThePayloadIsJSON() async throws {
        let store = InMemoryCredentialStore()
        try await CredentialVault(store: store).save(tokens, for: alice)
        let raw = try #require(try await store.get(alice.item(CredentialVault.credentialItem)))
        #expect(String(decoding: raw.payload, as: UTF8.self).contains("plain-access-token-value"))
    }

    @Test func wrongKeyIsATypedErrorAndKeepsTheRecord() async throws {
        let store = InMemoryCredentialStore()
        try await CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey())).save(tokens, for: alice)
        let other = CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()))
        await #expect { try await other.load(BearerTokenSet.self, for: alice) } throws: { ($0 as? CredentialStoreError)?.code == .cipher }
        #expect(try await store.get(alice.item(CredentialVault.credentialItem)) != nil)
    }

    @Test func flippedByteIsATypedError() async throws {
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()))
        try await vault.save(tokens, for: alice)
        let key = alice.item(CredentialVault.credentialItem)
        var raw = try #require(try await store.get(key))
        for index in [4, 20, raw.payload.count - 1] {
            var tampered = raw
            tampered.payload[tampered.payload.startIndex + index] ^= 0x01
            try await store.put(tampered, for: key)
            await #expect { try await vault.load(BearerTokenSet.self, for: alice) } throws: { error in
                guard let error = error as? CredentialStoreError else { return false }
                return error.code == .cipher && !error.description.contains("plain-")
            }
        }
        raw.payload = raw.payload.prefix(3)
        try await store.put(raw, for: key)
        await #expect { try await vault.load(BearerTokenSet.self, for: alice) } throws: { ($0 as? CredentialStoreError)?.code == .cipher }
    }

    @Test func sealedRecordMovedToAnotherAccountDoesNotOpen() async throws {
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()))
        try await vault.save(tokens, for: alice)
        let bob = AccountKey(namespace: "api", account: "bob")
        let raw = try #require(try await store.get(alice.item(CredentialVault.credentialItem)))
        try await store.put(raw, for: bob.item(CredentialVault.credentialItem))
        await #expect(throws: CredentialStoreError.self) { try await vault.load(BearerTokenSet.self, for: bob) }
    }

    @Test func wrongKeyLengthIsRefused() {
        #expect(throws: CredentialStoreError.self) { try AESGCMCipher(key: Data(repeating: 1, count: 16)) }
    }

    @Test func otherKindNewerVersionAndGarbageAreTypedErrors() async throws {
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store)
        let key = alice.item(CredentialVault.credentialItem)
        try await store.put(Envelope(kind: "basic", payload: Data("{}".utf8), updatedAt: Date()), for: key)
        await #expect { try await vault.load(BearerTokenSet.self, for: alice) } throws: { ($0 as? CredentialStoreError)?.code == .corrupted }
        try await store.put(Envelope(formatVersion: 9, kind: "bearer", payload: Data("{}".utf8), updatedAt: Date()), for: key)
        await #expect { try await vault.load(BearerTokenSet.self, for: alice) } throws: { ($0 as? CredentialStoreError)?.code == .incompatibleVersion }
        try await store.put(Envelope(kind: "bearer", payload: Data(#"{"accessToken": 12, "secret-ish": "plain-x"}"#.utf8), updatedAt: Date()), for: key)
        await #expect { try await vault.load(BearerTokenSet.self, for: alice) } throws: { error in
            (error as? CredentialStoreError)?.code == .corrupted && !String(describing: error).contains("plain-x")
        }
        // None of these reads deleted the record.
        #expect(try await store.get(key) != nil)
    }
}
