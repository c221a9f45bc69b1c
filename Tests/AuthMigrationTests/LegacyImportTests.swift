// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthMigration
import AuthSQLiteStore
import Foundation
import Testing

@Suite struct LegacyImportTests {
    static let me = AccountKey(namespace: "api.example.com", account: "me")

    /// A vault on a real SQLite file, sealed.
    static func withVault(_ body: (CredentialVault, URL) async throws -> Void) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("credentials.sqlite").path)
            try await body(CredentialVault(store: store, cipher: try AESGCMCipher(key: TestFiles.cipherKey)), folder)
            try await store.close()
        }
    }

    @Test func oldPrefixedLayoutFromADictionary() async throws {
        try await Self.withVault { vault, _ in
            let source = DictionaryKeyValueSource(["old_access_token": "old-at", "old_refresh_token": "old-rt", "unrelated": "x"])
            let result = try await LegacyImporter(vault: vault).importCredential(from: source, layout: .oldPrefixed, into: Self.me)
            #expect(result.outcome == .imported)
            #expect(result.kind == "bearer")
            #expect(result.foundKeys == ["old_access_token", "old_refresh_token"])
            let tokens = try #require(try await vault.load(BearerTokenSet.self, for: Self.me))
            #expect(tokens == BearerTokenSet(accessToken: "old-at", refreshToken: "old-rt"))
        }
    }

    @Test func standardLayoutFromAFilePerKeyDirectory() async throws {
        try await Self.withVault { vault, folder in
            let legacy = folder.appendingPathComponent(".mytool")
            try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
            try "at-123\n".write(to: legacy.appendingPathComponent("access_token"), atomically: true, encoding: .utf8)
            try "  rt-456  \n".write(to: legacy.appendingPathComponent("refresh_token"), atomically: true, encoding: .utf8)
            try "2030-01-02T03:04:05Z".write(to: legacy.appendingPathComponent("expires_at"), atomically: true, encoding: .utf8)
            let source = DirectoryKeyValueSource(directory: legacy)

            let result = try await LegacyImporter(vault: vault).importCredential(from: source, layout: .standard, into: Self.me)
            #expect(result.outcome == .imported)
            let tokens = try #require(try await vault.load(BearerTokenSet.self, for: Self.me))
            #expect(tokens.accessToken.reveal == "at-123")
            #expect(tokens.refreshToken?.reveal == "rt-456")
            #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1_893_553_445))
            // The legacy files are left as they were.
            #expect(try String(contentsOf: legacy.appendingPathComponent("access_token"), encoding: .utf8) == "at-123\n")
        }
    }

    @Test func guestLayoutFromARecordPerKeyStore() async throws {
        try await Self.withVault { vault, folder in
            let oldStore = try FileCredentialStore(directory: folder.appendingPathComponent("old-store"))
            let legacyAccount = AccountKey(namespace: "legacy", account: "default")
            let written = Date(timeIntervalSince1970: 1_700_000_000)
            try await oldStore.put(Envelope(kind: "text", payload: Data("guest-tok".utf8), updatedAt: written), for: legacyAccount.item("guest_token"))
            try await oldStore.put(Envelope(kind: "text", payload: Data("device-42".utf8), updatedAt: written), for: legacyAccount.item("device_id"))
            let source = StoreKeyValueSource(store: oldStore, account: legacyAccount)

            let result = try await LegacyImporter(vault: vault).importCredential(from: source, layout: .guest, into: Self.me)
            #expect(result.outcome == .imported)
            #expect(result.kind == "guest")
            let guest = try #require(try await vault.load(GuestToken.self, for: Self.me))
            #expect(guest == GuestToken(token: "guest-tok", expiresAt: nil, deviceID: "device-42"))
            #expect(try await oldStore.items(of: legacyAccount) == ["device_id", "guest_token"])
        }
    }

    @Test func customNamesAndAPIKeys() async throws {
        try await Self.withVault { vault, _ in
            let source = DictionaryKeyValueSource(["tok": "c-at", "rtok": "c-rt", "tok_exp": "1900000000", "perms": "read write", "key": "k-1"])
            let custom = LegacyLayout.custom(accessToken: "tok", refreshToken: "rtok", expiresAt: "tok_exp", scope: "perms")
            #expect(try await LegacyImporter(vault: vault).importCredential(from: source, layout: custom, into: Self.me).outcome == .imported)
            let tokens = try #require(try await vault.load(BearerTokenSet.self, for: Self.me))
            #expect(tokens == BearerTokenSet(accessToken: "c-at", refreshToken: "c-rt", expiresAt: Date(timeIntervalSince1970: 1_900_000_000), scope: "read write"))

            let apiKey = LegacyLayout.apiKey(key: "key", headerName: "Authorization", prefix: "Token ")
            let result = try await LegacyImporter(vault: vault).importCredential(from: source, layout: apiKey, into: Self.me, item: "api-key")
            #expect(result.outcome == .imported)
            let stored = try #require(try await vault.load(APIKeyHeaderCredential.self, for: Self.me, item: "api-key"))
            #expect(stored == APIKeyHeaderCredential(headerName: "Authorization", key: "k-1", prefix: "Token "))
        }
    }

    @Test func firstPresentLayoutWinsAndAbsentLayoutsWriteNothing() async throws {
        try await Self.withVault { vault, _ in
            let importer = LegacyImporter(vault: vault)
            let empty = DictionaryKeyValueSource(["access_token": "  \n"])
            let nothing = try await importer.importCredential(from: empty, layouts: [.standard, .oldPrefixed, .guest], into: Self.me)
            #expect(nothing.outcome == .nothingFound)
            #expect(try await vault.store.get(Self.me.item("credential")) == nil)

            let old = DictionaryKeyValueSource(["old_access_token": "o"])
            let found = try await importer.importCredential(from: old, layouts: [.standard, .oldPrefixed], into: Self.me)
            #expect(found.outcome == .imported)
            #expect(found.layout == "oldPrefixed")
        }
    }

    @Test func importingTwiceIsIdempotentAndNeverOverwritesANewerCredential() async throws {
        try await Self.withVault { vault, _ in
            let source = DictionaryKeyValueSource(["access_token": "legacy-at", "refresh_token": "legacy-rt"])
            let importer = LegacyImporter(vault: vault)
            #expect(try await importer.importCredential(from: source, layout: .standard, into: Self.me).outcome == .imported)
            let first = try await vault.store.get(Self.me.item("credential"))
            #expect(try await importer.importCredential(from: source, layout: .standard, into: Self.me).outcome == .alreadyImported)
            #expect(try await vault.store.get(Self.me.item("credential")) == first)  // not even rewritten
            #expect(try await TestFiles.allKeys(of: vault.store) == [Self.me.item("credential")])

            // The app renewed since: the vault's credential is newer and stays.
            let renewed = BearerTokenSet(accessToken: "renewed-at", refreshToken: "renewed-rt")
            try await vault.save(renewed, for: Self.me)
            #expect(try await importer.importCredential(from: source, layout: .standard, into: Self.me).outcome == .keptExisting)
            #expect(try await vault.load(BearerTokenSet.self, for: Self.me) == renewed)

            // Unless the caller asks to replace it.
            let replacing = LegacyImporter(vault: vault, existingCredentialPolicy: .replace)
            #expect(try await replacing.importCredential(from: source, layout: .standard, into: Self.me).outcome == .replacedExisting)
            #expect(try await vault.load(BearerTokenSet.self, for: Self.me)?.accessToken.reveal == "legacy-at")
        }
    }

    /// The app signs in (in another process) after the importer found no credential and before
    /// it wrote: the sign-in stays, and the import reports the credential it kept. The import
    /// wrote over it before.
    @Test func aSignInWrittenWhileImportingIsNeverOverwritten() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let base = try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("credentials.sqlite").path)
            let cipher = try AESGCMCipher(key: TestFiles.cipherKey)
            let key = Self.me.item(CredentialVault.credentialItem)
            let signedIn = BearerTokenSet(accessToken: "signed-in-at", refreshToken: "signed-in-rt")
            let app = CredentialVault(store: base, cipher: cipher)
            try await app.save(signedIn, for: Self.me)
            let written = try #require(try await base.get(key))
            try await base.delete(key)

            let racing = CredentialVault(store: InterposedStore.racing(base, writing: written, at: key, onRead: 1), cipher: cipher)
            let source = DictionaryKeyValueSource(["access_token": "legacy-at", "refresh_token": "legacy-rt"])
            let result = try await LegacyImporter(vault: racing).importCredential(from: source, layout: .standard, into: Self.me)
            #expect(result.outcome == .keptExisting)
            #expect(try await app.load(BearerTokenSet.self, for: Self.me) == signedIn)
            try await base.close()
        }
    }

    /// A store that cannot be read while the importer compares its record is an error: before,
    /// the import reported `keptExisting`, as if the record were another credential.
    @Test func aStoreThatFailsWhileComparingIsAnErrorNotKeptExisting() async throws {
        try await Self.withVault { vault, _ in
            let source = DictionaryKeyValueSource(["access_token": "legacy-at"])
            try await vault.save(BearerTokenSet(accessToken: "legacy-at", refreshToken: "other"), for: Self.me)
            let failing = CredentialVault(store: InterposedStore.failing(vault.store, onRead: 2), cipher: try AESGCMCipher(key: TestFiles.cipherKey))
            let error = await #expect(throws: CredentialStoreError.self) {
                try await LegacyImporter(vault: failing).importCredential(from: source, layout: .standard, into: Self.me)
            }
            #expect(error?.code == .unavailable)
            #expect(try await vault.load(BearerTokenSet.self, for: Self.me)?.refreshToken?.reveal == "other")
        }
    }

    /// A store whose conditional write never succeeds (its record changing each time, or a
    /// store that compares records its own way) stops the import with an error after a few
    /// attempts, writing nothing. Before, the importer tried again for ever.
    @Test(.timeLimit(.minutes(1)))
    func aRecordThatKeepsChangingStopsTheImportWithAnError() async throws {
        try await Self.withVault { vault, _ in
            let refusing = CredentialVault(store: InterposedStore.refusingConditionalWrites(vault.store), cipher: try AESGCMCipher(key: TestFiles.cipherKey))
            let source = DictionaryKeyValueSource(["access_token": "legacy-at"])
            let error = await #expect(throws: CredentialStoreError.self) {
                try await LegacyImporter(vault: refusing).importCredential(from: source, layout: .standard, into: Self.me)
            }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("legacy-at") == false)
            #expect(try await vault.store.get(Self.me.item(CredentialVault.credentialItem)) == nil)
        }
    }

    @Test func malformedOrIncompleteLayoutsAreTypedErrorsWithoutSecrets() async throws {
        try await Self.withVault { vault, folder in
            let importer = LegacyImporter(vault: vault)
            let badExpiry = DictionaryKeyValueSource(["access_token": "secret-at", "expires_at": "next tuesday"])
            let expiry = await #expect(throws: MigrationError.self) { try await importer.importCredential(from: badExpiry, layout: .standard, into: Self.me) }
            #expect(expiry?.code == .invalidLegacyValue)
            #expect(expiry?.description.contains("next tuesday") == false)

            let noDevice = DictionaryKeyValueSource(["guest_token": "secret-guest"])
            let missing = await #expect(throws: MigrationError.self) { try await importer.importCredential(from: noDevice, layout: .guest, into: Self.me) }
            #expect(missing?.code == .missingLegacyValue)
            #expect(missing?.description.contains("secret-guest") == false)
            #expect(try await vault.store.get(Self.me.item("credential")) == nil)

            let directory = DirectoryKeyValueSource(directory: folder)
            let escape = await #expect(throws: MigrationError.self) { try await directory.value(for: "../etc/passwd") }
            #expect(escape?.code == .invalidSourceKey)

            let result = try await importer.importCredential(from: DictionaryKeyValueSource(["access_token": "secret-at"]), layout: .standard, into: Self.me)
            #expect(!result.description.contains("secret-at"))
            #expect(!String(describing: DictionaryKeyValueSource(["access_token": "secret-at"])).contains("secret-at"))
        }
    }
}
