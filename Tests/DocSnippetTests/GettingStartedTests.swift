// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Issue 53: Getting Started runs as written. Its blocks are one Swift file (`MyAPI`, in
/// DocSnippets.swift, written by `scripts/doc-snippets`); these tests call that code against
/// AuthTestServer on 127.0.0.1, whose `/auth/login`, `/auth/refresh`, `/auth/logout` and `/me`
/// are the endpoints the article assumes, with a real SQLite file and a cipher.
@Suite struct GettingStartedTests {
    /// Counts the password prompts.
    final class Counter: Sendable {
        let count = Mutex(0)
    }

    static let password = "correct horse battery staple"

    /// Runs `body` with a server whose access tokens live `accessLifetime` seconds, a transport,
    /// a registered user `alice`, and a fresh database path and key.
    func withAPI(accessLifetime: Int = 300, _ body: (AuthTestServer, HTTPClientTransport, String, Data) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("getting-started-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = AuthTestServer.Configuration(lifetimes: TokenLifetimes(access: accessLifetime))
        try await AuthTestServer.withRunning(configuration: configuration) { server in
            try await HTTPClientTransport.withTransport { transport in
                let register = try AuthRequest(
                    method: .post, url: server.baseURL.appending(path: "auth/register"), headerFields: [.contentType: "application/json"],
                    body: JSONEncoder().encode(["username": "alice", "password": Self.password])
                )
                #expect(try await transport.send(register).status == .created)
                try await body(server, transport, directory.appendingPathComponent("credentials.sqlite").path, AESGCMCipher.generateKey())
            }
        }
    }

    @Test func theWalkThroughSignsInAsksSendsAndSignsOut() async throws {
        try await withAPI { server, transport, path, key in
            let api = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            #expect(try await api.account("alice").isSignedIn() == false)
            let client = try await api.signIn(username: "alice", password: Self.password)
            #expect(try await client.isSignedIn())
            #expect(try await api.profile(of: "alice").username == "alice")
            try await api.signOut("alice")
            #expect(try await api.account("alice").isSignedIn() == false)
            await #expect { try await api.profile(of: "alice") } throws: { ($0 as? AuthError)?.code == .notSignedIn }
        }
    }

    @Test func aWrongPasswordIsTheServers401() async throws {
        try await withAPI { server, transport, path, key in
            let api = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            await #expect { try await api.signIn(username: "alice", password: "wrong") } throws: {
                ($0 as? AuthError)?.code == .httpStatus && ($0 as? AuthError)?.status == 401
            }
            #expect(try await api.account("alice").isSignedIn() == false)
        }
    }

    @Test func launchAsksForThePasswordOnlyUntilTokensAreStoredSealed() async throws {
        try await withAPI { server, transport, path, key in
            let asked = Counter()
            let password: () async throws -> String = {
                asked.count.withLock { $0 += 1 }
                return Self.password
            }
            let first = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            #expect(try await first.launch(as: "alice", password: password).username == "alice")
            // The next launch of the app: a new container on the same database file.
            let next = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            #expect(try await next.launch(as: "alice", password: password).username == "alice")
            #expect(asked.count.withLock { $0 } == 1)
            // Sealed: no file of the database (nor its journal) holds the access token in the clear.
            let token = Data(try await next.account("alice").session.credentialForRequest().accessToken.reveal.utf8)
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            #expect(!files.isEmpty)
            for file in files { #expect(try Data(contentsOf: file).range(of: token) == nil, "\(file.lastPathComponent)") }
            // With another key, the stored record cannot be opened: a storage error, not "signed out".
            let wrongKey = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: AESGCMCipher.generateKey())
            await #expect { try await wrongKey.account("alice").isSignedIn() } throws: { ($0 as? AuthError)?.code == .storage }
        }
    }

    @Test func anExpiredAccessTokenIsRenewedThroughTheArticlesRefresh() async throws {
        try await withAPI(accessLifetime: 2) { server, transport, path, key in
            let api = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            let client = try await api.signIn(username: "alice", password: Self.password)
            let first = try await client.session.credentialForRequest()
            try await Task.sleep(for: .seconds(3))
            #expect(try await api.profile(of: "alice").username == "alice")
            let renewed = try await client.session.credentialForRequest()
            #expect(renewed.accessToken != first.accessToken)
            #expect(renewed.refreshToken != first.refreshToken)  // the server rotates them
            #expect(try await client.isSignedIn())
        }
    }

    @Test func aRevokedRefreshTokenNeedsANewSignIn() async throws {
        try await withAPI(accessLifetime: 2) { server, transport, path, key in
            let api = try await MyAPI(baseURL: server.baseURL, transport: transport, databasePath: path, key: key)
            let client = try await api.signIn(username: "alice", password: Self.password)
            // The server forgets the token family (a sign-out elsewhere), then the access token expires.
            #expect(try await client.send(.post, server.baseURL.appending(path: "auth/logout")).status == .noContent)
            try await Task.sleep(for: .seconds(3))
            await #expect { try await api.profile(of: "alice") } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
            #expect(try await client.isSignedIn())  // until a sign-out: only a new sign-in helps
            try await api.signIn(username: "alice", password: Self.password)
            #expect(try await api.profile(of: "alice").username == "alice")
        }
    }
}
