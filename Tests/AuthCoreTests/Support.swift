// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization

/// A scripted in-process server for unit tests of pipeline logic (no sockets): it accepts one
/// access token at a time and counts what it saw.
final class FakeAPI: Sendable {
    struct State {
        var validToken = "token-1"
        var requests = 0
        var tokensSeen: [String] = []
    }
    let state = Mutex(State())

    var requests: Int { state.withLock { $0.requests } }
    var tokensSeen: [String] { state.withLock { $0.tokensSeen } }
    func accept(_ token: String) { state.withLock { $0.validToken = token } }

    var transport: ClosureTransport {
        ClosureTransport { request in
            let auth = request.head.headerFields[.authorization] ?? ""
            let ok = self.state.withLock { state -> Bool in
                state.requests += 1
                state.tokensSeen.append(auth)
                return auth == "Bearer \(state.validToken)"
            }
            return AuthResponse(status: ok ? .ok : .unauthorized, body: ok ? Data(#"{"ok":true}"#.utf8) : Data())
        }
    }
}

/// Counts calls to a refresher and hands out numbered tokens.
final class CountingRefresher: Sendable {
    let calls = Atomic<Int>(0)
    let delay: Duration
    let onRefresh: @Sendable (Int) -> Void
    init(delay: Duration = .zero, onRefresh: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.delay = delay
        self.onRefresh = onRefresh
    }
    var count: Int { calls.load(ordering: .relaxed) }

    func refresh(_ tokens: BearerTokenSet, expiresIn: TimeInterval, now: Date) async throws -> BearerTokenSet {
        let n = calls.add(1, ordering: .relaxed).newValue
        if delay > .zero { try await Task.sleep(for: delay) }
        onRefresh(n)
        return BearerTokenSet(accessToken: "token-\(n)", refreshToken: "refresh-\(n)", expiresAt: now.addingTimeInterval(expiresIn))
    }
}

let alice = AccountKey(namespace: "api", account: "alice")
let apiURL = URL(string: "https://api.example.com/v1/me")!
let apiHosts = AllowedHosts(["api.example.com"])

func makeSession(
    store: any CredentialStore = InMemoryCredentialStore(),
    clock: ManualClock = ManualClock(),
    policy: RenewalPolicy = .init(),
    events: AuthEvents = AuthEvents(),
    refresh: @escaping @Sendable (BearerTokenSet) async throws -> BearerTokenSet
) -> AccountSession<BearerStrategy> {
    AccountSession(
        account: alice,
        strategy: BearerStrategy(allowedHosts: apiHosts, refresh: refresh),
        vault: CredentialVault(store: store, clock: clock),
        policy: policy, clock: clock, events: events
    )
}

func client<S: AuthStrategy>(_ session: AccountSession<S>, transport: any Transport, more: [any Middleware] = []) -> AuthClient {
    AuthClient(transport: transport, middlewares: more + [AuthenticationMiddleware(session: session)])
}

