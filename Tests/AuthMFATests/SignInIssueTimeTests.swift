import AuthCore
import Foundation
import Synchronization
import Testing
@testable import AuthMFA

/// A sign-in answer without a `Date` field: its tokens count as issued when the request was sent
/// (no later than the truth), not when the slow answer arrived.
@Suite struct SignInIssueTimeTests {
    /// A clock that moves only when told to.
    final class SteppedClock: AuthClock {
        private let current = Mutex(Date(timeIntervalSince1970: 1_767_225_600))
        func now() -> Date { current.withLock { $0 } }
        func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
        func sleep(for duration: Duration) async throws {}
    }

    @Test func withoutADateTheLifetimeRunsFromTheSending() async throws {
        let clock = SteppedClock()
        let sent = clock.now()
        let base = URL(string: "https://id.example.com/auth/")!
        let signIn = PasswordSignIn(loginURL: base.appending(path: "login"), verifyURL: base.appending(path: "mfa/verify"), transport: ClosureTransport { _ in
            clock.advance(by: 5)
            return AuthResponse(status: .ok, body: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#.utf8))
        }, clock: clock)
        let tokens = try await signIn.signIn(username: "alice", password: "pw")
        #expect(tokens.expiresAt == sent.addingTimeInterval(3600))
    }
}
