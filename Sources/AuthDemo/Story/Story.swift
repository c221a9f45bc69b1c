// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthMFA
import AuthOAuth2
import AuthTestServer
import Foundation
import HTTPTypes

/// The steps of the story, in order. Each step prints what happened and checks it.
struct Story {
    let server: AuthTestServer
    let transport: HTTPClientTransport
    let container: AuthContainer
    let report: StoryReport
    let folder: URL
    let burst: Int

    var base: URL { server.baseURL }
    var hosts: AllowedHosts { AllowedHosts(origin: base) }

    func run() async throws {
        let events = EventPrinter(container[AuthEventsKey.self])
        let alice = try await bearerClient("alice")
        let bob = try await bearerClient("bob")

        await report.step("Two users sign up and sign in") {
            for (name, client) in [("alice", alice), ("bob", bob)] {
                try await register(name)
                try await client.signIn(try await signIn(name))
            }
            let accounts = try await container[CredentialStoreKey.self].accounts(in: "demo")
            try check(accounts == ["alice", "bob"], "the store lists \(accounts)")
            return "alice and bob are signed in; the SQLite store lists \(accounts)"
        }

        await report.step("\(burst * 2) concurrent requests cross an access-token expiry") {
            server.clock.advance(by: 301)
            let before = server.counters.renewals
            let me = base.appending(path: "me")
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<(burst * 2) {
                    let client = index.isMultiple(of: 2) ? alice : bob
                    group.addTask { try await client.json(Me.self, .get, me).username ?? "?" }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            let renewals = server.counters.renewals - before
            try check(names.count == burst * 2 && Set(names) == ["alice", "bob"], "unexpected answers")
            try check(renewals == 2, "the server counted \(renewals) renewals, expected one per user")
            return "every request succeeded; the server renewed exactly once per user (\(renewals) in all)"
        }

        await report.step("A guest session tied to a persisted device id") {
            let account = AccountKey(namespace: "demo", account: "guest")
            let guest = container.makeClient(for: account, strategy: GuestStrategy(allowedHosts: hosts, endpoint: base.appending(path: "auth/guest"), transport: transport))
            let me = try await guest.json(Me.self, .get, base.appending(path: "me"))
            try check(me.guest && me.device_id != nil, "the server did not see a guest")
            return "guest session for device \(me.device_id ?? "?")"
        }

        await report.step("A 429 with Retry-After is waited out") {
            server.faults.inject(.status(429, retryAfter: "1"), path: "/me", times: 1)
            let before = server.counters.requests(path: "/me")
            let me = try await alice.json(Me.self, .get, base.appending(path: "me"))
            let attempts = server.counters.requests(path: "/me") - before
            try check(me.username == "alice" && attempts == 2, "took \(attempts) attempts")
            return "answered after one wait and one retry"
        }

        await report.step("A refresh token revoked on the server") {
            _ = await server.revokeRefreshTokens(username: "bob")
            server.clock.advance(by: 301)
            do {
                _ = try await bob.send(.get, base.appending(path: "me"))
                throw StepFailure(reason: "the request succeeded")
            } catch let error as AuthError where error.code == .reauthenticationRequired {
                try await bob.signIn(try await signIn("bob"))
                _ = try await bob.json(Me.self, .get, base.appending(path: "me"))
                return "bob was asked to sign in again (\(error.code)), did, and is back"
            }
        }
        try await extraSteps(alice: alice)
        events.stop()
    }

    func bearerClient(_ name: String) async throws -> AccountClient<BearerStrategy> {
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "auth-demo", transport: transport)
        return container.makeClient(for: AccountKey(namespace: "demo", account: name), strategy: BearerStrategy(allowedHosts: hosts, refresher: refresher))
    }

    func register(_ name: String, password: String = "demo password 1") async throws {
        let body = try JSONEncoder().encode(["username": name, "password": password])
        let response = try await transport.send(AuthRequest(method: .post, url: base.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: body))
        try check(response.status.code == 201, "register \(name) answered \(response.status.code)")
    }

    func signIn(_ name: String, password: String = "demo password 1", codes: (any MFACodeProvider)? = nil) async throws -> BearerTokenSet {
        try await PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"), transport: transport, codeProvider: codes).signIn(username: name, password: password)
    }
}

/// The server's `/me` answer.
struct Me: Decodable {
    let username: String?
    let guest: Bool
    let device_id: String?
}
