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

    @Test(arguments: StoreKind.allCases)
    func cookieSessionSurvivesAReload(_ kind: StoreKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookie-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Harness.run { h in
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
}
