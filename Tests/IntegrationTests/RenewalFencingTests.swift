// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// Issue 18 items 1–4 over real HTTP, a real SQLite store and, for "another process", the
/// `auth-store-worker` executable running as a separate OS process on the same store file.
@Suite struct RenewalFencingTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    /// A temporary SQLite store path, removed afterwards.
    static func withStorePath<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitFencing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.appendingPathComponent("credentials.sqlite").path)
    }

    /// Runs the worker against `h`'s server and the store at `path`.
    static func worker(_ h: Harness, _ path: String, _ action: String) async throws -> String {
        let result = try await WorkerProcess.run(["sqlite", path, h.base.absoluteString, alice.namespace, alice.account, action])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Signs alice in on the SQLite store at `path`, expires her token at the server, and starts a
    /// request whose refresh the server holds for 15 s (the sign-in or sign-out must land meanwhile;
    /// with 3 s, a worker process started at a full run's loaded start came too late); returns
    /// once the refresh is at the server.
    static func slowRenewal(_ h: Harness, _ path: String) async throws -> (AccountClient<BearerStrategy>, SQLiteCredentialStore, Task<AuthResponse, any Error>) {
        let store = try await SQLiteCredentialStore.open(at: path)
        try await h.register("alice")
        let client = h.container(store: store).makeClient(for: alice, strategy: h.bearer())
        try await client.signIn(try await h.login("alice"))
        h.server.clock.advance(by: 301)
        h.server.faults.inject(.delay(.seconds(15)), path: "/auth/refresh")
        let request = Task { try await client.send(.get, h.url("me")) }
        try await h.refreshArrived()
        return (client, store, request)
    }

    @Test(arguments: ["this process", "another process"])
    func signOutDuringASlowRenewalIsNotUndone(where signer: String) async throws {
        try await Self.withStorePath { path in
            try await Harness.run { h in
                let (client, _, request) = try await Self.slowRenewal(h, path)
                if signer == "this process" {
                    try await client.signOut()
                } else {
                    #expect(try await Self.worker(h, path, "signout") == "signed-out")
                }
                await #expect { try await request.value } throws: { ($0 as? AuthError)?.code == .notSignedIn }
                #expect(h.server.counters.renewals == 1)
                let reader = try await SQLiteCredentialStore.open(at: path)
                #expect(try await CredentialVault(store: reader).load(BearerTokenSet.self, for: Self.alice) == nil)
                await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .notSignedIn }
            }
        }
    }

    @Test(arguments: ["this process", "another process"])
    func signInDuringASlowRenewalWins(where signer: String) async throws {
        try await Self.withStorePath { path in
            try await Harness.run { h in
                let (client, store, request) = try await Self.slowRenewal(h, path)
                if signer == "this process" {
                    try await client.signIn(try await h.login("alice"))
                } else {
                    #expect(try await Self.worker(h, path, "signin") == "signed-in")
                }
                let signedIn = try #require(try await CredentialVault(store: store).load(BearerTokenSet.self, for: Self.alice))
                #expect(h.server.counters.renewals == 0, "the sign-in must land while the refresh is still at the server")
                #expect(try await request.value.status == .ok)
                #expect(h.server.counters.renewals == 1)
                // The renewal that finished later did not overwrite the sign-in's tokens.
                #expect(try await CredentialVault(store: store).load(BearerTokenSet.self, for: Self.alice) == signedIn)
                #expect(try await client.send(.get, h.url("me")).status == .ok)
                #expect(h.server.counters.rejectedReuse == 0)
            }
        }
    }

    /// A client of alice on the SQLite store at `path` whose renewal the server refused for good
    /// (a refresh token it never issued): its requests fail with `reauthenticationRequired`.
    static func daemonRefusedForGood(_ h: Harness, _ path: String) async throws -> AccountClient<BearerStrategy> {
        let container = h.container(store: try await SQLiteCredentialStore.open(at: path))
        try await h.register("alice")
        let daemon = container.makeClient(for: Self.alice, strategy: h.bearer())
        var dead = try await h.login("alice")
        dead.refreshToken = Secret("a-refresh-token-the-server-never-issued")
        dead.expiresAt = Date().addingTimeInterval(-1)
        try await daemon.signIn(dead)
        await #expect { try await daemon.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        return daemon
    }

    @Test func aDaemonRecoversSoonAfterAnotherProcessSignsIn() async throws {
        try await Self.withStorePath { path in
            try await Harness.run { h in
                let daemon = try await Self.daemonRefusedForGood(h, path)
                #expect(try await Self.worker(h, path, "signin") == "signed-in")
                let signedInAt = ContinuousClock.now
                var status = 0
                while status != 200, ContinuousClock.now - signedInAt < .seconds(60) {
                    do { status = try await daemon.send(.get, h.url("me")).status.code } catch { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(status == 200)
                // The recheck interval is 1 s; the rest is margin for a loaded machine (a full run's
                // start delays tasks by seconds). Without the recheck it never recovers.
                #expect(ContinuousClock.now - signedInAt < .seconds(30))
            }
        }
    }

    /// The same with a daemon that asks again only after the credential signed in elsewhere
    /// has passed its access token's expiry (it polls rarely, or the laptop slept): the stored
    /// credential is adopted and renewed with its refresh token. It was skipped as due for
    /// renewal, so the daemon asked for a sign-in until it was restarted.
    @Test func aDaemonAdoptsACredentialSignedInElsewhereWhoseAccessTokenExpired() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.lifetimes.access = 2
        try await Self.withStorePath { path in
            try await Harness.run(configuration: configuration) { h in
                let daemon = try await Self.daemonRefusedForGood(h, path)
                #expect(try await Self.worker(h, path, "signin") == "signed-in")
                try await Task.sleep(for: .seconds(3))  // the new access token's 2 s are over
                let asked = ContinuousClock.now
                var status = 0
                while status != 200, ContinuousClock.now - asked < .seconds(30) {
                    do { status = try await daemon.send(.get, h.url("me")).status.code } catch { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(status == 200)
                #expect(h.server.counters.rejectedReuse == 0)
            }
        }
    }

    @Test func twoSecondTokensUnderSteadyLoadForAMinuteAllSucceed() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.lifetimes.access = 2
        try await Harness.run(configuration: configuration) { h in
            let events = AuthEvents()
            let container = h.container()
            container.override(AuthEventsKey.self, with: events)
            let client = try await h.signedInClient("alice", container: container)
            h.server.resetCounters()
            let duration = Duration.seconds(60)
            let start = ContinuousClock.now
            let (sent, failed, failures) = await withTaskGroup(of: (Int, Int, [String]).self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var sent = 0, failed = 0, failures: [String] = []
                        while ContinuousClock.now - start < duration {
                            sent += 1
                            do {
                                let status = try await client.send(.get, h.url("me")).status.code
                                if status != 200 { failed += 1; failures.append("status \(status) at \(ContinuousClock.now - start)") }
                            } catch {
                                failed += 1
                                failures.append("\(error) at \(ContinuousClock.now - start)")
                            }
                        }
                        return (sent, failed, failures)
                    }
                }
                return await group.reduce(into: (0, 0, [String]())) { $0.0 += $1.0; $0.1 += $1.1; $0.2 += $1.2 }
            }
            #expect(sent > 1000)
            #expect(failed == 0, "\(failures.prefix(5))")
            // Lifetime 2 s, renewed at three quarters of the lifetime as seen through the
            // one-second `Date` header (1–2 s): at most twice and a half duration ÷ lifetime. At
            // least a third of duration ÷ lifetime: a loaded machine's stalls (seconds at a full
            // run's start) leave some tokens unused and unrenewed; `failed == 0` is the proof that
            // renewal kept up, this only that the tokens were renewed all along.
            let renewals = h.server.counters.renewals
            #expect(renewals >= 10 && renewals <= 75, "renewals: \(renewals)")
        }
    }

    @Test func aRejectedClientIsAConfigurationErrorAskedOnce() async throws {
        try await Harness.run { h in
            let client = try await h.signedInClient("alice", container: h.container())
            h.server.clock.advance(by: 301)
            h.server.faults.inject(.response(status: 401, headers: ["Content-Type": "application/json"], body: #"{"error":"invalid_client"}"#), path: "/auth/refresh", times: 10)
            for _ in 0..<5 {
                await #expect { try await client.send(.get, h.url("me")) } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .misconfigured && error.message.contains("invalid_client")
                }
            }
            #expect(h.server.faults.remaining(path: "/auth/refresh") == 9)
        }
    }
}

extension Harness {
    /// Waits until a refresh request has reached the server (it is then held by a delay fault).
    func refreshArrived(timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while server.counters.requests(path: "/auth/refresh") == 0 {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
