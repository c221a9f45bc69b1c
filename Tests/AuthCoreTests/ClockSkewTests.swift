import AuthCore
import AuthTesting
import Foundation
import Testing

/// The skew estimate from a response's `Date`: the server's clock read that second at some
/// instant between the request's sending and the response's arrival. A response that came slowly
/// (a stalled machine, a long body) used to make the server's clock look that much behind, so that
/// expired tokens stayed in use: a 2.5-second response, a skew of −2.5 s.
@Suite struct ClockSkewTests {
    static func session(_ clock: ManualClock) -> AccountSession<BearerStrategy> {
        AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { $0 },
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
    }

    /// A server whose clock is `skew` from the local one stamps a response at `sent + after`,
    /// which arrives at `sent + took`; the session's estimate.
    static func estimate(skew: TimeInterval, stampedAfter after: TimeInterval, took: TimeInterval) -> TimeInterval {
        let clock = ManualClock()
        let session = Self.session(clock)
        let sent = clock.now()
        let field = HTTPDate.format(sent.addingTimeInterval(after + skew))
        clock.advance(by: took)
        session.observeServerDateField(field, sentAt: sent)
        return session.clockSkew
    }

    @Test(arguments: [0.0, 2.5])
    func aSlowResponseFromAServerInStepIsNoSkew(stampedAfter after: TimeInterval) {
        // Stamped at once and slow to arrive (a long body), or stamped late.
        #expect(Self.estimate(skew: 0, stampedAfter: after, took: 2.5) == 0)
        #expect(Self.estimate(skew: 0, stampedAfter: after, took: 30) == 0)
    }

    @Test func aServerAheadOrBehindIsSeenAsLittleAsTheResponseAllows() {
        // Ahead: at least what the header shows at arrival.
        let ahead = Self.estimate(skew: 100, stampedAfter: 0, took: 0.2)
        #expect(ahead > 98.7 && ahead <= 100)
        // Behind: at most what the header shows at sending, plus the header's resolution.
        let behind = Self.estimate(skew: -100, stampedAfter: 3, took: 3)
        #expect(behind >= -100 && behind < -95.9)
        // A slow response from a server 100 s behind: the skew is still seen.
        #expect(Self.estimate(skew: -100, stampedAfter: 0, took: 10) < -98)
    }

    @Test func lessThanTheThresholdEitherWayIsNoSkew() {
        #expect(Self.estimate(skew: 1.5, stampedAfter: 0, took: 0.1) == 0)
        #expect(Self.estimate(skew: -1.5, stampedAfter: 0, took: 0.1) == 0)
    }
}
