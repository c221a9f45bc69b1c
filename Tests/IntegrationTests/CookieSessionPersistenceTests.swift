// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthFileStore
import AuthSQLiteStore
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// A cookie session survives a reload from a SQLite store and from a file store: the same
/// cookies come back, and a client rebuilt on them is still signed in without a new login.
@Suite struct CookieSessionPersistenceTests {
    enum StoreKind: String, Sendable, CaseIterable {
        case sqlite, file
    }

    /// The parts of a cookie that a reload must keep (not its last-access time).
    struct CookieIdentity: Hashable, Comparable {
        let name, value, domain, path: String
        let expiresAt: Date?
        let isSecure, isHTTPOnly, isHostOnly: Bool

        init(_ cookie: Cookie) {
            (name, value, domain, path) = (cookie.name, cookie.value, cookie.domain, cookie.path)
            (expiresAt, isSecure, isHTTPOnly, isHostOnly) = (cookie.expiresAt, cookie.isSecure, cookie.isHTTPOnly, cookie.isHostOnly)
        }

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.name < rhs.name }
    }

    static func identities(_ cookies: [Cookie]) -> [CookieIdentity] { cookies.map(CookieIdentity.init).sorted() }

    static func open(_ kind: StoreKind, in folder: URL) async throws -> any CredentialStore {
        switch kind {
        case .sqlite: try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("credentials.sqlite").path)
        case .file: try FileCredentialStore(directory: folder.appendingPathComponent("credentials"))
        }
    }

    static func close(_ store: any CredentialStore) async throws {
        if let sqlite = store as? SQLiteCredentialStore { try await sqlite.close() }
    }

    /// Runs `body` with a new temporary folder for the store (removed afterwards) and a running
    /// test server.
    static func withFolder(_ name: String, _ body: (URL, Harness) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Harness.run { h in try await body(folder, h) }
    }

    @Test(arguments: StoreKind.allCases)
    func cookieSessionSurvivesAReload(_ kind: StoreKind) async throws {
        try await Self.withFolder("cookie-session") { folder, h in
            let account = AccountKey(namespace: "cookies", account: "alice")

            // First run: sign in, then cross a session expiry so the saved jar is the re-login's.
            let first = try await Self.open(kind, in: folder)
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer(store: first))
            let firstSID = alice.strategy.jar.allCookies.first { $0.name == "sid" }?.value
            h.server.clock.advance(by: 301)
            #expect(try await alice.client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")
            #expect(h.server.counters.count("sessionLogins") == 2)
            let saved = Self.identities(alice.strategy.jar.allCookies)
            #expect(saved.map(\.name) == ["csrf_token", "sid"])
            #expect(saved.first { $0.name == "sid" }?.value != firstSID)
            try await Self.close(first)

            // Second run: a new store instance on the same files, a new container.
            let second = try await Self.open(kind, in: folder)
            let loaded = try await CookieJarStore(store: second, account: account).loadJar()
            #expect(Self.identities(loaded.allCookies) == saved)
            let container = h.cookieContainer(store: second)
            let jar = try await container.restoreCookieJar(for: account)
            #expect(Self.identities(jar.allCookies) == saved)

            let strategy = container.cookieSessionStrategy(for: account, allowedHosts: h.hosts, login: h.cookieLogin())
            let client = container.makeClient(for: account, strategy: strategy)  // no signIn: the credential is stored
            #expect(try await client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")
            let echo = try await client.json(NoteEcho.self, .post, h.url("session/notes"), body: Data("after reload".utf8))
            #expect(echo == NoteEcho(username: "alice", body: "after reload"))
            #expect(h.server.counters.count("sessionLogins") == 2)  // still signed in: no new login
            #expect(h.server.counters.count("sessionRejected") == 1)  // only the expiry of the first run
            try await Self.close(second)
        }
    }

    /// A sign-out ends the cookie session on this machine: the jar is emptied and its saved
    /// record removed, so a client rebuilt on the store (the next run of the program) has no
    /// session cookie to send. Before the fix the jar and its record kept `sid` and
    /// `csrf_token` after the sign-out.
    @Test(arguments: StoreKind.allCases)
    func aSignOutRemovesTheSessionCookies(_ kind: StoreKind) async throws {
        try await Self.withFolder("cookie-signout") { folder, h in
            let account = AccountKey(namespace: "cookies", account: "alice")
            let store = try await Self.open(kind, in: folder)
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer(store: store))
            #expect(try await CookieJarStore(store: store, account: account).loadSnapshot()?.cookies.map(\.name).sorted() == ["csrf_token", "sid"])

            try await alice.client.signOut()
            #expect(alice.strategy.jar.allCookies.isEmpty, "the jar still holds \(alice.strategy.jar.allCookies.map(\.name))")
            #expect(try await store.get(account.item(CookieJarStore.item)) == nil, "the saved jar outlived the sign-out")
            let reloaded = try await h.cookieContainer(store: store).restoreCookieJar(for: account)
            #expect(reloaded.allCookies.isEmpty)
            try await Self.close(store)
        }
    }

    /// With a cipher configured, the saved jar is sealed like the credential: the session
    /// cookie's value is nowhere in the stored record, the record reads only with that cipher,
    /// and a reload with it restores the same cookies. Before the fix the record was plain JSON
    /// holding the `sid` value.
    @Test(arguments: StoreKind.allCases)
    func theSavedJarIsSealedByTheContainersCipher(_ kind: StoreKind) async throws {
        try await Self.withFolder("cookie-sealed") { folder, h in
            let account = AccountKey(namespace: "cookies", account: "alice")
            let cipher = try AESGCMCipher(key: AESGCMCipher.generateKey())
            let store = try await Self.open(kind, in: folder)
            let container = h.cookieContainer(store: store)
            container.useCipher(cipher)
            let alice = try await h.cookieSessionClient("alice", container: container)
            let sid = try #require(alice.strategy.jar.allCookies.first { $0.name == "sid" }?.value)
            let record = try #require(try await store.get(account.item(CookieJarStore.item)))
            #expect(record.payload.range(of: Data(sid.utf8)) == nil, "the stored jar holds the session cookie's value")
            #expect(record.payload.range(of: Data("csrf_token".utf8)) == nil, "the stored jar is readable without the key")

            let unsealed = await #expect(throws: CredentialStoreError.self) { try await CookieJarStore(store: store, account: account).loadSnapshot() }
            #expect(unsealed?.code == .corrupted, "read without the cipher")
            let again = h.cookieContainer(store: store)
            again.useCipher(cipher)
            let jar = try await again.restoreCookieJar(for: account)
            #expect(Self.identities(jar.allCookies) == Self.identities(alice.strategy.jar.allCookies))
            try await Self.close(store)
        }
    }
}
