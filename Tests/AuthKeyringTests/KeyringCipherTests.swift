// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import AuthCore
import AuthKeyring
import AuthTesting
import Foundation
import Synchronization
import Testing

/// `useKeyringCipher(service:)`: the vault's key created in the keyring on first use, found
/// there afterwards, in this process and in another one.
@Suite(.serialized, .enabled(if: PrivateSecretService.shouldRun, PrivateSecretService.disabledNote), .timeLimit(.minutes(3)))
struct KeyringCipherTests {
    let alice = AccountKey(namespace: "api", account: "alice")

    @Test func theKeyIsCreatedOnFirstUseAndFoundAfterwards() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            let item = KeyringItem(service: "dev.authkit.cipher", account: KeyringVaultKey.defaultAccount)
            #expect(try await keyring.secret(for: item) == nil)

            let store = InMemoryCredentialStore()
            let first = AuthContainer()
            first.override(CredentialStoreKey.self, with: store)
            try await first.useKeyringCipher(service: "dev.authkit.cipher", keyring: keyring)
            try await first[CredentialVaultKey.self].save(BearerTokenSet(accessToken: "token-of-alice"), for: alice)
            let created = try #require(try await keyring.secret(for: item))
            #expect(created.count == 32)

            // Stored sealed: the record's payload does not hold the token.
            let record = try #require(try await store.get(alice.item(CredentialVault.credentialItem)))
            #expect(!String(decoding: record.payload, as: UTF8.self).contains("token-of-alice"))

            // A second container finds the same key and opens the record.
            let second = AuthContainer()
            second.override(CredentialStoreKey.self, with: store)
            try await second.useKeyringCipher(service: "dev.authkit.cipher", keyring: keyring)
            #expect(try await second[CredentialVaultKey.self].load(BearerTokenSet.self, for: alice)?.accessToken.reveal == "token-of-alice")
            #expect(try await keyring.secret(for: item)?.isEqual(to: created) == true)
        }
    }

    @Test func aVaultSealedWithTheKeyringKeyOpensInANewProcess() async throws {
        // Two runs of `keyring-helper`, each a new process with `useSQLiteStore(at:)` and
        // `useKeyringCipher(service:)` (the Secret Service of DBUS_SESSION_BUS_ADDRESS).
        try await PrivateSecretService.with { service in
            let database = service.directory + "/store.sqlite"
            let sealer = try HelperProcess(named: "keyring-helper", arguments: ["seal", database, "dev.authkit.process", "token-across-processes"], environment: service.environment)
            #expect(await sealer.remainingLines() == ["sealed"])
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            let item = KeyringItem(service: "dev.authkit.process", account: KeyringVaultKey.defaultAccount)
            #expect(try await keyring.secret(for: item)?.count == 32)

            // On disk (the database and its journal files), nothing of the token.
            let files = try FileManager.default.contentsOfDirectory(atPath: service.directory).filter { $0.hasPrefix("store.sqlite") }
            #expect(files.contains("store.sqlite"))
            for file in files {
                let bytes = FileManager.default.contents(atPath: service.directory + "/" + file) ?? Data()
                #expect(bytes.range(of: Data("token-across-processes".utf8)) == nil)
            }

            let opener = try HelperProcess(named: "keyring-helper", arguments: ["open", database, "dev.authkit.process"], environment: service.environment)
            #expect(await opener.remainingLines() == ["token token-across-processes"])

            // Without the keyring's key (deleted), a new key is made on first use, and the sealed
            // record stays unreadable rather than being read as something else.
            #expect(try await keyring.deleteSecret(for: item))
            let stranger = try HelperProcess(named: "keyring-helper", arguments: ["open", database, "dev.authkit.process"], environment: service.environment)
            #expect(await stranger.remainingLines() == ["error store.cipher"])
        }
    }

    @Test func aNewProcessMeetingALockedKeyringWithNoPrompterIsDenied() async throws {
        try await PrivateSecretService.with { service in
            let database = service.directory + "/store.sqlite"
            let sealer = try HelperProcess(named: "keyring-helper", arguments: ["seal", database, "dev.authkit.locked", "kept-token"], environment: service.environment)
            #expect(await sealer.remainingLines() == ["sealed"])
            try await service.lock()
            // `useKeyringCipher(service:)` allows the keyring's unlock prompt; none can be shown
            // on this bus (no prompter, no display), so the unlock is refused, typed.
            let opener = try HelperProcess(named: "keyring-helper", arguments: ["open", database, "dev.authkit.locked"], environment: service.environment)
            #expect(await opener.remainingLines() == ["error keyring.denied"])
        }
    }

    @Test func aNewProcessWithNoSecretServiceGetsTheNotRunningError() async throws {
        try await PrivateSecretService.with(withKeyring: false) { service in
            let database = service.directory + "/store.sqlite"
            let opener = try HelperProcess(named: "keyring-helper", arguments: ["open", database, "dev.authkit.absent"], environment: service.environment)
            #expect(await opener.remainingLines() == ["error keyring.serviceUnavailable"])
        }
    }

    @Test func aStoredKeyOfTheWrongLengthIsReportedAndKept() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            let item = KeyringItem(service: "dev.authkit.short", account: KeyringVaultKey.defaultAccount)
            try await keyring.setSecret(KeyringSecret(bytes: Array("sixteen bytes!!!".utf8)), for: item, label: "not a key")
            let container = AuthContainer()
            await #expect { try await container.useKeyringCipher(service: "dev.authkit.short", keyring: keyring) } throws: { error in
                guard let error = error as? KeyringError else { return false }
                return error.code == .malformedAnswer && !error.message.contains("sixteen")
            }
            #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == Array("sixteen bytes!!!".utf8))
        }
    }

    /// Two processes starting for the first time together: B looked for the key before A
    /// created it (B's first read is answered "none", as it was then), so B creates one too. B
    /// keeps A's key, and so does everyone after: A's records stay readable. Before the fix B's
    /// key replaced A's in the keyring, and every record A had sealed became unreadable.
    @Test(arguments: [1, 9])
    func twoProcessesCreatingTheKeyAtOnceAgreeOnTheFirst(itemsBefore: Int) async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            // With 8 items before, the two keys are items 9 and 10 of the collection, created in
            // the same second: "…/10" sorts before "…/9" as text, not as the number it is.
            for index in 0..<itemsBefore - 1 {
                try await keyring.setSecret(KeyringSecret(bytes: [UInt8(index)]), for: KeyringItem(service: "dev.authkit.other", account: "\(index)"), label: "other")
            }
            let a = try await KeyringVaultKey.key(service: "dev.authkit.race", keyring: keyring)
            let b = try await KeyringVaultKey.key(service: "dev.authkit.race", keyring: ReadTooEarly(keyring))
            #expect(b.isEqual(to: a), "the second process uses another key than the first")
            let later = try await KeyringVaultKey.key(service: "dev.authkit.race", keyring: keyring)
            #expect(later.isEqual(to: a), "the keyring now gives another key than the one the first process sealed with")
        }
    }

    /// A keyring whose first read answers "none": a process that looked before another one
    /// stored the key.
    final class ReadTooEarly: Keyring {
        let keyring: any Keyring
        let readBefore = Mutex(false)
        init(_ keyring: any Keyring) { self.keyring = keyring }
        func secret(for item: KeyringItem) async throws -> KeyringSecret? {
            let first = readBefore.withLock { read in
                defer { read = true }
                return !read
            }
            if first { return nil }
            return try await keyring.secret(for: item)
        }
        func setSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws { try await keyring.setSecret(secret, for: item, label: label) }
        func addSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws { try await keyring.addSecret(secret, for: item, label: label) }
        func deleteSecret(for item: KeyringItem) async throws -> Bool { try await keyring.deleteSecret(for: item) }
    }

    @Test func aLockedKeyringStopsTheConfigurationWithItsError() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(allowsPrompts: false, busAddress: service.busAddress))
            let container = AuthContainer()
            try await container.useKeyringCipher(service: "dev.authkit.locked", keyring: keyring)
            try await service.lock()
            let later = AuthContainer()
            await #expect { try await later.useKeyringCipher(service: "dev.authkit.locked", keyring: keyring) } throws: {
                ($0 as? KeyringError)?.code == .locked
            }
        }
    }
}
#endif
