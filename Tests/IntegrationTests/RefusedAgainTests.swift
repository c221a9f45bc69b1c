import AuthCore
import AuthTestServer
import Foundation
import Synchronization
import Testing

/// A request refused with one token and then with a newer one it did not renew itself (another
/// request's renewal, or one adopted from the store) renews once more instead of failing: the
/// server may stop taking tokens before the client expects (AuthTestServer rounds a token's issue
/// time down to the second, so a 2-second token may last 1 s). Found by the steady-load test of
/// `RenewalFencingTests`: three requests held up for a second on a loaded machine came back
/// refused, retried with the token renewed meanwhile, already expired at the server, and failed
/// with `rejectedAfterRenewal`.
@Suite struct RefusedAgainTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    /// A server clock frozen now (`set` moves it), tokens of `lifetime` seconds.
    static func configuration(lifetime: Int) -> (AuthTestServer.Configuration, ServerClock, Date) {
        let start = Date()
        let clock = ServerClock.fixed(at: start)
        var configuration = AuthTestServer.Configuration(clock: clock)
        configuration.lifetimes.access = lifetime
        return (configuration, clock, start)
    }

    /// A container whose clients ignore the server's clock (skew below a minute), so that a jump
    /// of the server's clock is, for them, a server that stops taking tokens early.
    static func container(_ h: Harness, store: any CredentialStore, gate: Gate? = nil) -> AuthContainer {
        let container = h.container(store: store)
        container.override(RenewalPolicyKey.self, with: RenewalPolicy(skewThreshold: .seconds(60)))
        if let gate {
            var plugins = container[PluginMiddlewaresKey.self]
            plugins.inner.append { _ in gate }
            container.override(PluginMiddlewaresKey.self, with: plugins)
        }
        return container
    }

    @Test(arguments: ["this client", "another client of the store"])
    func aNewerTokenTheServerAlsoRefusesIsRenewedOnceMore(renewedBy renewer: String) async throws {
        let (configuration, clock, start) = Self.configuration(lifetime: 30)
        try await Harness.run(configuration: configuration) { h in
            let store = InMemoryCredentialStore()
            let gate = Gate()
            let client = Self.container(h, store: store, gate: gate).makeClient(for: Self.alice, strategy: h.bearer())
            let other = Self.container(h, store: store).makeClient(for: Self.alice, strategy: h.bearer())
            try await h.register("alice")
            let signedIn = try await h.login("alice")
            try await client.signIn(signedIn)
            h.server.resetCounters()

            // The request takes the signed-in token and is held before it leaves.
            let request = Task { try await client.send(.get, h.url("me")) }
            await gate.arrival()
            // Meanwhile a newer token, issued at `start` like the first.
            _ = try await (renewer == "this client" ? client : other).session.renew(from: signedIn)
            #expect(h.server.counters.renewals == 1)
            // The server's clock jumps past both tokens' expiry; the client still expects the
            // newer one to last about 30 s.
            clock.set(start.addingTimeInterval(31))
            gate.open()

            let response = try await request.value
            #expect(response.status == .ok)
            #expect(h.server.counters.renewals == 2)
            // Refused with the first token, refused with the newer one, answered with a third.
            #expect(h.server.counters.requests(path: "/me") == 3)
        }
    }

    @Test func aTokenRenewedForTheRefusalAndRefusedIsFinal() async throws {
        try await Harness.run { h in
            let client = try await h.signedInClient("alice", container: Self.container(h, store: InMemoryCredentialStore()))
            h.server.resetCounters()
            h.server.faults.inject(.status(401), path: "/me", times: 3)
            await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .rejectedAfterRenewal }
            #expect(h.server.counters.renewals == 1)
            #expect(h.server.counters.requests(path: "/me") == 2)
        }
    }
}

/// Holds the first request that reaches it until ``open()``; later requests pass at once.
final class Gate: Middleware {
    private let arrived = AsyncStream<Void>.makeStream()
    private let opened = AsyncStream<Void>.makeStream()
    private let first = Atomic(true)

    /// Returns once a request is held.
    func arrival() async {
        for await _ in arrived.stream { return }
    }

    /// Lets the held request go.
    func open() { opened.continuation.yield() }

    nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        if first.exchange(false, ordering: .relaxed) {
            arrived.continuation.yield()
            for await _ in opened.stream { break }
        }
        return try await next(request)
    }
}
