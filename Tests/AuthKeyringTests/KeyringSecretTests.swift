// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthKeyring
import Foundation
import Testing

/// What no one may see of a secret: its bytes, in any description or error.
struct KeyringSecretTests {
    @Test func descriptionsShowTheLengthOnly() {
        let secret = KeyringSecret(bytes: Array("hunter2-hunter2".utf8))
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret), dumped] {
            #expect(!text.contains("hunter2"))
        }
        #expect(secret.description == "KeyringSecret(15 bytes)")
    }

    @Test func equalityComparesBytes() {
        #expect(KeyringSecret(bytes: [1, 2, 3]).isEqual(to: KeyringSecret(bytes: [1, 2, 3])))
        #expect(!KeyringSecret(bytes: [1, 2, 3]).isEqual(to: KeyringSecret(bytes: [1, 2, 4])))
        #expect(!KeyringSecret(bytes: [1, 2]).isEqual(to: KeyringSecret(bytes: [1, 2, 3])))
    }

    @Test func theInMemoryKeyringStoresFindsAndDeletes() async throws {
        let keyring = InMemoryKeyring()
        let item = KeyringItem(service: "s", account: "a")
        #expect(try await keyring.secret(for: item) == nil)
        try await keyring.setSecret(KeyringSecret(bytes: [7]), for: item, label: "l")
        #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == [7])
        #expect(try await keyring.deleteSecret(for: item))
        #expect(try await keyring.deleteSecret(for: item) == false)
    }

    @Test func theVaultKeyComesFromAnyKeyring() async throws {
        let keyring = InMemoryKeyring()
        let first = try await KeyringVaultKey.key(service: "svc", keyring: keyring)
        let again = try await KeyringVaultKey.key(service: "svc", keyring: keyring)
        #expect(first.count == 32)
        #expect(first.isEqual(to: again))
    }
}
