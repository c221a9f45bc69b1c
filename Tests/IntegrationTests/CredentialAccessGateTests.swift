// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTestServer
import AuthTesting
import Foundation
import Synchronization
import Testing

/// The app's gate before a stored credential is used, over real requests to AuthTestServer.
@Suite struct CredentialAccessGateTests {
    /// A gate whose answers the test chooses, counting the questions.
    final class Asker: Sendable {
        let questions = Mutex<[CredentialAccess]>([])
        let answer: @Sendable () async throws -> Bool

        init(_ answer: @escaping @Sendable () async throws -> Bool) { self.answer = answer }

        var count: Int { questions.withLock { $0.count } }

        func gate(window: Duration, clock: any AuthClock = SystemClock()) -> CredentialAccessGate {
            CredentialAccessGate(approvalWindow: window, clock: clock) { access in
                self.questions.withLock { $0.append(access) }
                return try await self.answer()
            }
        }
    }

    @Test func anApprovedUseSendsTheRequestWithTheCredential() async throws {
        try await Harness.run { h in
            let asker = Asker { true }
            let container = h.container()
            container.useCredentialAccessGate(asker.gate(window: .seconds(60)))
            let client = try await h.signedInClient("alice", container: container)
            #expect(try await client.json(Me.self, .get, h.url("me")).username == "alice")
            #expect(h.server.counters.requests(path: "/me") == 1)
            #expect(asker.count == 1)
            let question = try #require(asker.questions.withLock { $0.first })
            #expect(question.account == client.account)
            #expect(question.origin == Origin(scheme: "http", host: "127.0.0.1", port: h.base.port))
            #expect(question.method == "GET")
        }
    }

    @Test func aDeniedUseSendsNothingAndAsksAgainNextTime() async throws {
        try await Harness.run { h in
            let asker = Asker { false }
            let container = h.container()
            container.useCredentialAccessGate(asker.gate(window: .seconds(60)))
            let client = try await h.signedInClient("alice", container: container)
            // Expired: a request would renew first; denied, it must not renew either.
            h.server.clock.advance(by: 301)
            h.server.resetCounters()
            for attempt in 1...2 {
                await #expect { try await client.send(.get, h.url("me")) } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .accessDenied && error.account == client.account
                }
                #expect(asker.count == attempt)
            }
            // Nothing reached the server: no request, no renewal.
            #expect(h.server.counters.requests(path: "/me") == 0)
            #expect(h.server.counters.renewals == 0)
            #expect(h.server.counters.requestsByPath.isEmpty)
        }
    }

    @Test func aPromptThatFailsDeniesWithItsError() async throws {
        struct NoBiometry: Error {}
        try await Harness.run { h in
            let container = h.container()
            container.useCredentialAccessGate(Asker { throw NoBiometry() }.gate(window: .seconds(60)))
            let client = try await h.signedInClient("alice", container: container)
            await #expect { try await client.send(.get, h.url("me")) } throws: { error in
                guard let error = error as? AuthError else { return false }
                return error.code == .accessDenied && error.underlying is NoBiometry
            }
            #expect(h.server.counters.requests(path: "/me") == 0)
        }
    }

    @Test func anApprovalHoldsForItsWindowThenIsAskedAgain() async throws {
        try await Harness.run { h in
            let clock = ManualClock()
            let asker = Asker { true }
            let gate = asker.gate(window: .seconds(60), clock: clock)
            let container = h.container()
            container.useCredentialAccessGate(gate)
            let client = try await h.signedInClient("alice", container: container)

            for _ in 0..<3 { #expect(try await client.send(.get, h.url("me")).status == .ok) }
            #expect(asker.count == 1)
            clock.advance(by: 59)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(asker.count == 1)

            clock.advance(by: 2)  // the window has ended
            #expect(!gate.isApproved(client.account))
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(asker.count == 2)

            gate.endApprovals()  // the app locks itself
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(asker.count == 3)
            #expect(h.server.counters.requests(path: "/me") == 6)
        }
    }

    @Test func anApprovalIsPerAccount() async throws {
        try await Harness.run { h in
            let asker = Asker { true }
            let container = h.container()
            container.useCredentialAccessGate(asker.gate(window: .seconds(60)))
            let alice = try await h.signedInClient("alice", container: container)
            let bob = try await h.signedInClient("bob", container: container)
            _ = try await alice.send(.get, h.url("me"))
            _ = try await bob.send(.get, h.url("me"))
            _ = try await alice.send(.get, h.url("me"))
            #expect(asker.questions.withLock { $0.map(\.account.account) } == ["alice", "bob"])
        }
    }

    @Test func requestsArrivingWhileTheQuestionIsOpenShareItsAnswer() async throws {
        try await Harness.run { h in
            let (release, releaser) = AsyncStream<Bool>.makeStream()
            let asker = Asker {
                for await answer in release { return answer }
                return false
            }
            let container = h.container()
            container.useCredentialAccessGate(asker.gate(window: .seconds(60)))
            let client = try await h.signedInClient("alice", container: container)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await client.send(.get, h.url("me")).status.code } }
                while asker.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
                // The question is open: nothing is sent until it is answered.
                #expect(h.server.counters.requests(path: "/me") == 0)
                releaser.yield(true)
                releaser.finish()
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 20))
            #expect(asker.count == 1)
            #expect(h.server.counters.requests(path: "/me") == 20)
        }
    }

    @Test func anAccountWithNoCredentialIsNotAskedAbout() async throws {
        try await Harness.run { h in
            let asker = Asker { true }
            let container = h.container()
            container.useCredentialAccessGate(asker.gate(window: .seconds(60)))
            let client = container.makeClient(for: AccountKey(namespace: "testserver", account: "nobody"), strategy: h.bearer())
            await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .notSignedIn }
            #expect(asker.count == 0)
        }
    }
}
