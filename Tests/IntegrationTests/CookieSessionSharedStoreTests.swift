// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthTestServer
import Foundation
import Testing

/// Two processes sharing one store (here two store instances on the same files, each with its
/// own container, as two runs of a program would have) share a cookie session: the saved jar
/// belongs to the sign-in of the stored credential.
///
/// Before the fix, the jar of a process followed the store only when the program called
/// `restoreCookieJar`, and never again: a second process sent no cookie (or the cookies of a
/// session another process had ended) and signed in again itself, and its next save overwrote the
/// other process's newer cookies on disk. A save also wrote over a record it could not read.
@Suite struct CookieSessionSharedStoreTests {
    typealias StoreKind = CookieSessionPersistenceTests.StoreKind
    static let alice = AccountKey(namespace: "cookies", account: "alice")

    /// A second process, in the same folder: its own store instance and container.
    struct Process {
        let store: any CredentialStore
        let container: AuthContainer
        let strategy: CookieSessionStrategy
        let client: AccountClient<CookieSessionStrategy>

        init(_ kind: StoreKind, in folder: URL, _ h: Harness) async throws {
            store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            container = h.cookieContainer(store: store)
            strategy = container.cookieSessionStrategy(for: CookieSessionSharedStoreTests.alice, allowedHosts: h.hosts, login: h.cookieLogin())
            client = container.makeClient(for: CookieSessionSharedStoreTests.alice, strategy: strategy)
        }

        /// The `sid` the jar holds.
        var sid: String? { strategy.jar.allCookies.first { $0.name == "sid" }?.value }

        /// The `sid` of the saved jar.
        func savedSID() async throws -> String? {
            try await CookieJarStore(store: store, account: CookieSessionSharedStoreTests.alice).loadSnapshot()?.cookies.first { $0.name == "sid" }?.value
        }

        /// Signs in again, as the user would.
        func signIn() async throws {
            try await client.signIn(try await strategy.signIn(username: "alice", password: Harness.password))
        }

        func close() async throws { try await CookieSessionPersistenceTests.close(store) }
    }

    /// A process that finds a session signed in by another uses that session's cookies: no
    /// `restoreCookieJar`, no refusal, no second login.
    @Test(arguments: StoreKind.allCases)
    func aSecondProcessUsesTheSessionTheFirstSignedIn(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-shared") { folder, h in
            try await h.register("alice")
            let first = try await Process(kind, in: folder, h)
            try await first.signIn()
            let second = try await Process(kind, in: folder, h)

            #expect(try await second.client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")
            #expect(second.sid == first.sid)
            #expect(h.server.counters.count("sessionLogins") == 1, "the second process signed in again")
            #expect(h.server.counters.count("sessionRejected") == 0, "the second process sent no session")
            try await first.close()
            try await second.close()
        }
    }

    /// When one process ends its session and signs in again, the other, refused with the ended
    /// session, adopts the new sign-in with its cookies rather than signing in a third time.
    @Test(arguments: StoreKind.allCases)
    func aProcessRefusedWithAnEndedSessionTakesTheNewSignInsCookies(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-follow") { folder, h in
            try await h.register("alice")
            let first = try await Process(kind, in: folder, h)
            try await first.signIn()
            let second = try await Process(kind, in: folder, h)
            #expect(try await second.client.send(.get, h.url("session/me")).status == .ok)

            // The first process ends its session on the server (the second still holds it) and
            // signs in again.
            #expect(try await first.client.send(.post, h.url("session/logout")).status == .noContent)
            try await first.signIn()
            let newSID = try #require(first.sid)
            #expect(try await first.savedSID() == newSID)

            #expect(try await second.client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")
            #expect(second.sid == newSID)
            #expect(h.server.counters.count("sessionLogins") == 2, "the second process signed in again instead of taking the new session")
            #expect(try await first.savedSID() == newSID)
            // And the first process goes on with the same session.
            #expect(try await first.client.send(.get, h.url("session/me")).status == .ok)
            try await first.close()
            try await second.close()
        }
    }

    /// A process still holding an older sign-in's cookies does not save them over the newer
    /// sign-in's record, nor bring back a record that a sign-out removed.
    @Test(arguments: StoreKind.allCases)
    func aJarOfAnOlderSessionIsNotSavedOverANewerOne(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-stale") { folder, h in
            try await h.register("alice")
            let first = try await Process(kind, in: folder, h)
            try await first.signIn()
            let second = try await Process(kind, in: folder, h)
            #expect(try await second.client.send(.get, h.url("session/me")).status == .ok)
            let olderSID = second.sid
            try await first.signIn()
            let newerSID = try #require(first.sid)
            #expect(newerSID != olderSID)

            // The second process's jar changes (an answer set a cookie) and is saved.
            let jars = second.container[CookieJarsKey.self]
            let saver = jars.jarStore(for: Self.alice, in: second.container[CredentialVaultKey.self])
            // However often it tries: a refusal is not taken as having seen the record.
            for theme in ["dark", "darker"] {
                second.strategy.jar.setCookies(fromHeaderValues: ["theme=\(theme); Path=/; Max-Age=3600"], for: h.url("session/me"))
                #expect(try await saver.save(second.strategy.jar) == false)
                #expect(try await first.savedSID() == newerSID, "the older session's cookies replaced the newer ones")
            }

            // Signed out in the first process: the second's save does not bring the record back.
            try await first.client.signOut()
            for theme in ["light", "lighter"] {
                second.strategy.jar.setCookies(fromHeaderValues: ["theme=\(theme); Path=/; Max-Age=3600"], for: h.url("session/me"))
                #expect(try await saver.save(second.strategy.jar) == false)
                #expect(try await first.store.get(Self.alice.item(CookieJarStore.item)) == nil, "a save brought back the signed-out session's cookies")
            }
            try await first.close()
            try await second.close()
        }
    }

    /// A record this code cannot read (written by a newer version, sealed with a key this process
    /// does not have) is never overwritten by a save: the save fails with the reading's error.
    @Test(arguments: StoreKind.allCases)
    func aSaveNeverOverwritesARecordItCannotRead(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-unreadable") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let key = Self.alice.item(CookieJarStore.item)
            let url = try #require(URL(string: "https://app.example.com/"))
            let sealed = CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()))
            let newer = Envelope(formatVersion: CookieJarSnapshot.currentFormatVersion + 1, kind: CookieJarStore.kind, payload: Data("{}".utf8), updatedAt: Date(), expiresAt: nil)
            let cases: [(String, CredentialStoreError.Code, () async throws -> Envelope)] = [
                ("newer version", .incompatibleVersion, {
                    try await store.put(newer, for: key)
                    return newer
                }),
                ("another key", .corrupted, {
                    let jar = CookieJar()
                    jar.setCookies(fromHeaderValues: ["sid=sealed; Max-Age=3600"], for: url)
                    try await CookieJarStore(vault: sealed, account: Self.alice).save(jar)
                    return try #require(try await store.get(key))
                }),
            ]
            for (name, code, plant) in cases {
                try await store.delete(key)
                let planted = try await plant()
                let jar = CookieJar()
                jar.setCookies(fromHeaderValues: ["sid=mine; Max-Age=3600"], for: url)
                let error = await #expect(throws: CredentialStoreError.self, "\(name)") { try await CookieJarStore(store: store, account: Self.alice).save(jar) }
                #expect(error?.code == code, "\(name)")
                let kept = try await store.get(key)
                #expect(kept?.payload == planted.payload && kept?.formatVersion == planted.formatVersion, "\(name): the record was overwritten")
            }
            try await CookieSessionPersistenceTests.close(store)
        }
    }

    /// A refresh writes its cookies only over its own session's record: not over a sign-in that
    /// overtook it in another process, and not back after a sign-out removed the record.
    @Test(arguments: StoreKind.allCases)
    func aRefreshOvertakenElsewhereDoesNotWriteItsCookies(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-refresh") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let url = try #require(URL(string: "https://app.example.com/"))
            let (renewed, refreshed, signedInElsewhere) = (UUID(), UUID(), UUID())
            let saver = CookieJarStore(store: store, account: Self.alice)
            let sid = { try await saver.loadSnapshot()?.cookies.first { $0.name == "sid" }?.value }
            let jar = { (value: String) in
                let jar = CookieJar()
                jar.setCookies(fromHeaderValues: ["sid=\(value); Max-Age=3600"], for: url)
                return jar
            }

            #expect(try await saver.establish(jar("renewed"), session: renewed))
            let mine = jar("refreshed")
            #expect(try await saver.establish(mine, session: refreshed, replacing: renewed))
            #expect(mine.session == refreshed)
            #expect(try await sid() == "refreshed")

            // Another process signed in meanwhile.
            #expect(try await CookieJarStore(store: store, account: Self.alice).establish(jar("elsewhere"), session: signedInElsewhere))
            let late = jar("late refresh")
            #expect(try await saver.establish(late, session: UUID(), replacing: refreshed) == false)
            #expect(late.session == nil, "an overtaken refresh marked the jar")
            #expect(try await sid() == "elsewhere")

            // Another process signed out meanwhile.
            try await CookieJarStore(store: store, account: Self.alice).delete()
            #expect(try await saver.establish(jar("after sign-out"), session: UUID(), replacing: signedInElsewhere) == false)
            #expect(try await store.get(Self.alice.item(CookieJarStore.item)) == nil, "a refresh brought back the signed-out session's cookies")
            try await CookieSessionPersistenceTests.close(store)
        }
    }

    /// A record a save cannot read does not stop a sign-in: the new session's cookies replace it.
    @Test(arguments: StoreKind.allCases)
    func aSignInReplacesARecordASaveCannotRead(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-signin-unreadable") { folder, h in
            try await h.register("alice")
            let process = try await Process(kind, in: folder, h)
            let newer = Envelope(formatVersion: CookieJarSnapshot.currentFormatVersion + 1, kind: CookieJarStore.kind, payload: Data("{}".utf8), updatedAt: Date(), expiresAt: nil)
            try await process.store.put(newer, for: Self.alice.item(CookieJarStore.item))
            try await process.signIn()
            let sid = try #require(process.sid)
            #expect(try await process.savedSID() == sid)
            #expect(try await process.client.send(.get, h.url("session/me")).status == .ok)
            try await process.close()
        }
    }

    /// A record of another session that following a sign-in came across is not taken as the
    /// record this jar saw: the jar's next save does not replace it.
    @Test(arguments: StoreKind.allCases)
    func aRecordFoundWhileFollowingIsNotOverwrittenByTheNextSave(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-follow-other") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let url = try #require(URL(string: "https://app.example.com/"))
            let (older, newer, adopted) = (UUID(), UUID(), UUID())
            let mine = CookieJarStore(store: store, account: Self.alice)
            let jar = CookieJar()
            jar.setCookies(fromHeaderValues: ["sid=older; Max-Age=3600"], for: url)
            #expect(try await mine.establish(jar, session: older))
            let other = CookieJar()
            other.setCookies(fromHeaderValues: ["sid=newer; Max-Age=3600"], for: url)
            #expect(try await CookieJarStore(store: store, account: Self.alice).establish(other, session: newer))

            // This process follows a sign-in whose cookies are not (yet) in the record.
            try await mine.follow(adopted, into: jar)
            #expect(jar.allCookies.first?.value == "older")
            jar.setCookies(fromHeaderValues: ["theme=dark; Max-Age=3600"], for: url)
            #expect(try await mine.save(jar) == false)
            #expect(try await mine.loadSnapshot()?.cookies.map(\.value) == ["newer"], "the older session's cookies replaced the newer ones")
            try await CookieSessionPersistenceTests.close(store)
        }
    }

    /// Following another sign-in does not replace a jar whose session cookie (no expiry) the
    /// record cannot hold: by default session cookies are not saved, so the record's cookies
    /// would have ended this process's working session.
    @Test(arguments: StoreKind.allCases)
    func aJarWithASessionCookieTheRecordCannotHoldIsKept(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-session-cookie") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let url = try #require(URL(string: "https://app.example.com/"))
            let other = CookieJar()
            other.setCookies(fromHeaderValues: ["sid=theirs; Path=/", "pref=1; Max-Age=3600"], for: url)
            let newer = UUID()
            #expect(try await CookieJarStore(store: store, account: Self.alice).establish(other, session: newer))
            #expect(try await CookieJarStore(store: store, account: Self.alice).loadSnapshot()?.cookies.map(\.name) == ["pref"])

            let mine = CookieJar()
            mine.setCookies(fromHeaderValues: ["sid=mine; Path=/"], for: url)
            try await CookieJarStore(store: store, account: Self.alice).follow(newer, into: mine)
            #expect(mine.allCookies.map(\.value) == ["mine"], "the working session cookie was dropped")
            try await CookieSessionPersistenceTests.close(store)
        }
    }

    /// A jar outside any cookie session (plain `useCookies()`) keeps the last writer's rule: a
    /// record removed elsewhere is written again by its next save.
    @Test(arguments: StoreKind.allCases)
    func aPlainJarSavesAgainAfterItsRecordWasRemovedElsewhere(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-plain") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let url = try #require(URL(string: "https://app.example.com/"))
            let saver = CookieJarStore(store: store, account: Self.alice)
            let jar = CookieJar()
            jar.setCookies(fromHeaderValues: ["lb=node-1; Max-Age=3600"], for: url)
            #expect(try await saver.save(jar))
            try await CookieJarStore(store: store, account: Self.alice).delete()
            jar.setCookies(fromHeaderValues: ["lb=node-2; Max-Age=3600"], for: url)
            #expect(try await saver.save(jar))
            #expect(try await saver.loadSnapshot()?.cookies.map(\.value) == ["node-2"])
            try await CookieSessionPersistenceTests.close(store)
        }
    }

    /// A refresh over a record this code cannot read writes nothing and throws nothing: the
    /// refresh the server accepted still renews the credential.
    @Test(arguments: StoreKind.allCases)
    func aRefreshOverAnUnreadableRecordWritesNothingAndDoesNotFail(_ kind: StoreKind) async throws {
        try await CookieSessionPersistenceTests.withFolder("cookie-refresh-unreadable") { folder, _ in
            let store = try await CookieSessionPersistenceTests.open(kind, in: folder)
            let url = try #require(URL(string: "https://app.example.com/"))
            let key = Self.alice.item(CookieJarStore.item)
            let newer = Envelope(formatVersion: CookieJarSnapshot.currentFormatVersion + 1, kind: CookieJarStore.kind, payload: Data("{}".utf8), updatedAt: Date(), expiresAt: nil)
            try await store.put(newer, for: key)
            let jar = CookieJar()
            jar.setCookies(fromHeaderValues: ["sid=refreshed; Max-Age=3600"], for: url)
            #expect(try await CookieJarStore(store: store, account: Self.alice).establish(jar, session: UUID(), replacing: UUID()) == false)
            #expect(try await store.get(key)?.formatVersion == newer.formatVersion)
            try await CookieSessionPersistenceTests.close(store)
        }
    }
}
