// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthMigration
import Foundation
import Testing

@Suite struct RecordUpgradeTests {
    static let alice = AccountKey(namespace: "profiles", account: "alice")
    static let bob = AccountKey(namespace: "profiles", account: "bob")
    static let carol = AccountKey(namespace: "profiles", account: "carol")
    static let dave = AccountKey(namespace: "profiles", account: "dave")

    static func migrator() throws -> RecordMigrator {
        var migrator = RecordMigrator()
        try migrator.register("profile-v2-rename-token", kind: ProfileToken.kind, from: 1, to: 2, step: ProfileSteps.renameToken)
        try migrator.register("profile-v3-add-scopes", kind: ProfileToken.kind, from: 2, to: 3, step: ProfileSteps.addScopes)
        return migrator
    }

    @Test func registrationIsAppendOnly() throws {
        var migrator = try Self.migrator()
        let noop: @Sendable (Data) throws -> Data = { $0 }
        let duplicate = #expect(throws: MigrationError.self) { try migrator.register("profile-v3-add-scopes", kind: "profile-token", from: 3, to: 4, step: noop) }
        #expect(duplicate?.code == .duplicateStep)
        let gap = #expect(throws: MigrationError.self) { try migrator.register("profile-v5", kind: "profile-token", from: 4, to: 5, step: noop) }
        #expect(gap?.code == .versionGap)
        let rewrite = #expect(throws: MigrationError.self) { try migrator.register("profile-v2-again", kind: "profile-token", from: 1, to: 2, step: noop) }
        #expect(rewrite?.code == .overlappingStep)
        let backwards = #expect(throws: MigrationError.self) { try migrator.register("down", kind: "other", from: 2, to: 1, step: noop) }
        #expect(backwards?.code == .invalidStep)
        // Refused registrations changed nothing; appending the next step works.
        #expect(migrator.latestVersion(of: "profile-token") == 3)
        try migrator.register("profile-v4", kind: "profile-token", from: 3, to: 4, step: noop)
        #expect(migrator.steps(for: "profile-token").map(\.identifier) == ["profile-v2-rename-token", "profile-v3-add-scopes", "profile-v4"])
        #expect(migrator.latestVersion(of: "bearer") == nil)
    }

    @Test func chainRunsEveryStepInOrder() throws {
        let migrator = try Self.migrator()
        let key = Self.alice.item("credential")
        let v1 = Envelope(formatVersion: 1, kind: "profile-token", payload: Data(#"{"token":"t-1"}"#.utf8), updatedAt: Date(timeIntervalSince1970: 5))
        let v3 = try migrator.upgrade(v1, to: 3, key: key)
        #expect(v3.formatVersion == 3)
        #expect(v3.updatedAt == v1.updatedAt)
        let decoded = try JSONDecoder().decode(ProfileToken.self, from: v3.payload)
        #expect(decoded.accessToken.reveal == "t-1")
        #expect(decoded.scopes == ["read"])
        #expect(try migrator.upgrade(v1, to: 2, key: key).payload == Data(#"{"accessToken":"t-1"}"#.utf8))

        let newer = Envelope(formatVersion: 4, kind: "profile-token", payload: Data("{}".utf8), updatedAt: Date(timeIntervalSince1970: 5))
        let error = #expect(throws: CredentialStoreError.self) { try migrator.upgrade(newer, to: 3, key: key) }
        #expect(error?.code == .incompatibleVersion)
        #expect(error?.key == key)
    }

    @Test func vaultUpgradesSealedRecordsOnReadAndWritesThemBack() async throws {
        let store = InMemoryCredentialStore()
        let cipher = try AESGCMCipher(key: TestFiles.cipherKey)
        try await CredentialVault(store: store, cipher: cipher).save(ProfileTokenV1(token: Secret("v1-secret")), for: Self.alice)
        try await CredentialVault(store: store, cipher: cipher).save(ProfileTokenV2(accessToken: Secret("v2-secret")), for: Self.bob)
        #expect(try await store.get(Self.alice.item("credential"))?.formatVersion == 1)

        let vault = CredentialVault(store: store, cipher: cipher, upgrader: try Self.migrator())
        let alice = try #require(try await vault.load(ProfileToken.self, for: Self.alice))
        #expect(alice == ProfileToken(accessToken: Secret("v1-secret"), scopes: ["read"]))
        let bob = try #require(try await vault.load(ProfileToken.self, for: Self.bob))
        #expect(bob == ProfileToken(accessToken: Secret("v2-secret"), scopes: ["read"]))

        // Written back at v3, still sealed.
        let stored = try #require(try await store.get(Self.alice.item("credential")))
        #expect(stored.formatVersion == 3)
        #expect(stored.payload.starts(with: Data("AKG1".utf8)))
        #expect(!String(decoding: stored.payload, as: UTF8.self).contains("v1-secret"))
        // A plain vault of the new version now reads it without any upgrader.
        #expect(try await CredentialVault(store: store, cipher: cipher).load(ProfileToken.self, for: Self.alice) == alice)
    }

    @Test func newerRecordIsRefusedOnReadAndLeftIntact() async throws {
        let store = InMemoryCredentialStore()
        let key = Self.alice.item("credential")
        let newer = Envelope(formatVersion: 7, kind: "profile-token", payload: Data("written by a future version".utf8), updatedAt: Date(timeIntervalSince1970: 9))
        try await store.put(newer, for: key)
        let vault = CredentialVault(store: store, upgrader: try Self.migrator())
        let error = await #expect(throws: CredentialStoreError.self) { try await vault.load(ProfileToken.self, for: Self.alice) }
        #expect(error?.code == .incompatibleVersion)
        #expect(try await store.get(key) == newer)
    }

    @Test func bulkUpgradeThroughTheVaultUpgradesOnlyWhatItShould() async throws {
        let store = InMemoryCredentialStore()
        let cipher = try AESGCMCipher(key: TestFiles.cipherKey)
        let old = CredentialVault(store: store, cipher: cipher)
        try await old.save(ProfileTokenV1(token: Secret("a")), for: Self.alice)
        try await old.save(ProfileTokenV2(accessToken: Secret("b")), for: Self.bob)
        try await old.save(ProfileToken(accessToken: Secret("c"), scopes: ["admin"]), for: Self.carol)
        try await old.save(BearerTokenSet(accessToken: "bearer"), for: Self.alice, item: "api")
        let newer = Envelope(formatVersion: 4, kind: "profile-token", payload: Data("future".utf8), updatedAt: Date(timeIntervalSince1970: 1))
        try await store.put(newer, for: Self.dave.item("credential"))
        let carolBefore = try await store.get(Self.carol.item("credential"))
        let bearerBefore = try await store.get(Self.alice.item("api"))

        let report = try await Self.migrator().upgradeAll(in: store, types: [ProfileToken.self], cipher: cipher)
        #expect(Set(report.upgraded) == [Self.alice.item("credential"), Self.bob.item("credential")])
        #expect(report.alreadyCurrent == [Self.carol.item("credential")])
        #expect(report.newerThanKnown == [Self.dave.item("credential")])
        #expect((report.skipped.first?.error as? CredentialStoreError)?.code == .incompatibleVersion)
        #expect(report.otherKinds == 1)

        for account in [Self.alice, Self.bob] {
            #expect(try await store.get(account.item("credential"))?.formatVersion == 3)
        }
        let plain = CredentialVault(store: store, cipher: cipher)
        #expect(try await plain.load(ProfileToken.self, for: Self.alice) == ProfileToken(accessToken: Secret("a"), scopes: ["read"]))
        #expect(try await plain.load(ProfileToken.self, for: Self.bob) == ProfileToken(accessToken: Secret("b"), scopes: ["read"]))
        #expect(try await store.get(Self.carol.item("credential")) == carolBefore)
        #expect(try await store.get(Self.alice.item("api")) == bearerBefore)
        #expect(try await store.get(Self.dave.item("credential")) == newer)

        // Again: nothing left to do.
        let again = try await Self.migrator().upgradeAll(in: store, types: [ProfileToken.self], cipher: cipher)
        #expect(again.upgraded.isEmpty)
        #expect(again.alreadyCurrent.count == 3)
    }

    /// A renewal writes a current record while the bulk upgrade works on the old one: the
    /// renewal's record stays (it was overwritten by the upgraded old one, refresh token and all).
    @Test func aBulkUpgradeKeepsARecordWrittenMeanwhile() async throws {
        let base = InMemoryCredentialStore()
        let key = Self.alice.item("credential")
        try await base.put(Envelope(formatVersion: 1, kind: "profile-token", payload: Data(#"{"token":"old"}"#.utf8), updatedAt: Date(timeIntervalSince1970: 1)), for: key)
        let renewed = Envelope(formatVersion: 3, kind: "profile-token", payload: Data(#"{"accessToken":"renewed","scopes":["read"]}"#.utf8), updatedAt: Date(timeIntervalSince1970: 2))
        let store = InterposedStore.racing(base, writing: renewed, at: key, onRead: 1)
        let report = try await Self.migrator().upgradeAll(in: store, kinds: ["profile-token"])
        #expect(try await base.get(key) == renewed)
        #expect(report.upgraded.isEmpty)
        #expect(report.skipped.map(\.key) == [key])
    }

    @Test func bulkUpgradeByKindForUnsealedRecords() async throws {
        let store = InMemoryCredentialStore()
        let v1 = Envelope(formatVersion: 1, kind: "profile-token", payload: Data(#"{"token":"x"}"#.utf8), updatedAt: Date(timeIntervalSince1970: 1))
        let broken = Envelope(formatVersion: 1, kind: "profile-token", payload: Data("not json".utf8), updatedAt: Date(timeIntervalSince1970: 1))
        let newer = Envelope(formatVersion: 9, kind: "profile-token", payload: Data("future".utf8), updatedAt: Date(timeIntervalSince1970: 1))
        try await store.put(v1, for: Self.alice.item("credential"))
        try await store.put(broken, for: Self.bob.item("credential"))
        try await store.put(newer, for: Self.carol.item("credential"))
        let clock = FixedClock(date: Date(timeIntervalSince1970: 1_800_000_000))

        let report = try await Self.migrator().upgradeAll(in: store, kinds: ["profile-token"], clock: clock)
        #expect(report.upgraded == [Self.alice.item("credential")])
        #expect(report.newerThanKnown == [Self.carol.item("credential")])
        #expect(Set(report.skipped.map(\.key)) == [Self.bob.item("credential"), Self.carol.item("credential")])
        let upgraded = try #require(try await store.get(Self.alice.item("credential")))
        #expect(upgraded.formatVersion == 3)
        #expect(upgraded.updatedAt == clock.date)
        #expect(try JSONDecoder().decode(ProfileToken.self, from: upgraded.payload).scopes == ["read"])
        #expect(try await store.get(Self.bob.item("credential")) == broken)
        #expect(try await store.get(Self.carol.item("credential")) == newer)
        // A failing step is named, and its error text does not quote the payload.
        let failure = try #require(report.skipped.first { $0.key == Self.bob.item("credential") })
        #expect(failure.reason.contains("profile-v2-rename-token"))
        #expect(!failure.description.contains("not json"))
    }
}

/// A clock stopped at `date`.
struct FixedClock: AuthClock {
    let date: Date
    func now() -> Date { date }
    func sleep(for duration: Duration) async throws {}
}
