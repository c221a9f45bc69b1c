// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite struct GuestStrategyTests {
    /// The guest endpoint's answer, read inside a renewal of a session whose server reads 0.6 s
    /// ahead: the strategy measures on the session's server time already (`context.now`), so
    /// the offset is not added again. Added twice, a token minted at 1.97 s (server time) in an
    /// answer stamped `Date: 2` counted as issued at 2 s, and expired a second later than on the
    /// server.
    @Test func aGuestTokenInsideARenewalIsNotShiftedTwice() async throws {
        let minted = Date(timeIntervalSince1970: 1_800_000_001.97)
        let endpoint = ClosureTransport { _ in
            try await Task.sleep(for: .milliseconds(60))  // the answer leaves at 2.03 s
            return AuthResponse(status: .ok, headerFields: [.date: HTTPDate.format(Date(timeIntervalSince1970: 1_800_000_002))],
                                body: Data(#"{"access_token":"guest","expires_in":100}"#.utf8))
        }
        let strategy = GuestStrategy(allowedHosts: apiHosts, endpoint: URL(string: "https://api.example.com/auth/guest")!, transport: endpoint)
        let context = RenewalContext(account: alice, vault: CredentialVault(store: InMemoryCredentialStore()), now: minted)
        let token = try await TokenResponse.$serverClockOffset.withValue(0.6) { try await strategy.renew(nil, context: context) }
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_800_000_001 + 100))
    }

    @Test func guestSessionStartsWithPersistedDeviceID() async throws {
        let store = InMemoryCredentialStore()
        let clock = ManualClock()
        let issued = Mutex<[String]>([])
        let endpoint = ClosureTransport { request in
            guard let device = request.head.headerFields[.deviceID] else { return AuthResponse(status: .badRequest) }
            issued.withLock { $0.append(device) }
            return AuthResponse(status: .ok, body: Data(#"{"access_token":"guest-\#(device)","expires_in":60}"#.utf8))
        }
        let strategy = GuestStrategy(allowedHosts: apiHosts, endpoint: URL(string: "https://api.example.com/auth/guest")!, transport: endpoint)
        func freshSession() -> AccountSession<GuestStrategy> {
            AccountSession(account: alice, strategy: strategy, vault: CredentialVault(store: store, clock: clock), clock: clock)
        }
        let seen = Mutex<[HTTPFields]>([])
        let api = ClosureTransport { request in seen.withLock { $0.append(request.head.headerFields) }; return AuthResponse(status: .ok) }

        _ = try await client(freshSession(), transport: api).send(.get, apiURL)
        // Rebuilt client, expired guest token: a new session for the same device.
        clock.advance(by: 120)
        _ = try await client(freshSession(), transport: api).send(.get, apiURL)
        let devices = issued.withLock { $0 }
        #expect(devices.count == 2)
        #expect(devices[0] == devices[1])
        let headers = seen.withLock { $0 }
        #expect(headers.allSatisfy { $0[.deviceID] == devices[0] && $0[.authorization] == "Bearer guest-\(devices[0])" })
    }

    @Test func staticCredentialsCannotBeRenewed() async throws {
        let session = AccountSession(account: alice, strategy: APIKeyHeaderStrategy(allowedHosts: apiHosts), vault: CredentialVault(store: InMemoryCredentialStore()))
        try await session.signIn(APIKeyHeaderCredential(key: "k"))
        let rejecting = ClosureTransport { _ in AuthResponse(status: .unauthorized) }
        await #expect { try await client(session, transport: rejecting).send(.get, apiURL) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
    }

    @Test func credentialsAttachOnlyToAllowedOrigins() async throws {
        let session = AccountSession(account: alice, strategy: APIKeyQueryStrategy(allowedHosts: AllowedHosts(["*.example.com"])), vault: CredentialVault(store: InMemoryCredentialStore()))
        try await session.signIn(APIKeyQueryCredential(parameterName: "api_key", key: "K"))
        let paths = Mutex<[String]>([])
        let transport = ClosureTransport { request in paths.withLock { $0.append("\(request.head.scheme ?? "")://\(request.head.authority ?? "")\(request.head.path ?? "")") }; return AuthResponse(status: .ok) }
        let pipeline = client(session, transport: transport)
        for url in ["https://api.example.com/x?a=1", "https://example.com/x", "https://evil.com/x", "http://api.example.com/x", "https://a.example.com.evil.net/x"] {
            _ = try await pipeline.send(.get, URL(string: url)!)
        }
        #expect(paths.withLock { $0 } == [
            "https://api.example.com/x?a=1&api_key=K", "https://example.com/x", "https://evil.com/x", "http://api.example.com/x", "https://a.example.com.evil.net/x",
        ])
    }

    @Test func basicCredentialHeader() {
        var request = try! AuthRequest(method: .get, url: apiURL)
        BasicCredential(username: "Aladdin", password: "open sesame").authorize(&request)
        #expect(request.head.headerFields[.authorization] == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }
}

@Suite struct AllowedHostsTests {
    func origin(_ url: String) -> Origin { Origin(try! AuthRequest(method: .get, url: URL(string: url)!).head)! }

    @Test(arguments: [
        ("api.example.com", "https://api.example.com/x", true),
        ("api.example.com", "https://api.example.com:443/x", true),
        ("api.example.com", "https://api.example.com:8443/x", false),
        ("api.example.com:8443", "https://api.example.com:8443/x", true),
        ("api.example.com", "http://api.example.com/x", false),
        ("*.example.com", "https://a.b.example.com/x", true),
        ("*.example.com", "https://example.com/x", false),
        ("*.example.com", "https://badexample.com/x", false),
        ("127.0.0.1:8080", "http://127.0.0.1:8080/x", true),
        ("127.0.0.1:8080", "http://127.0.0.1:8081/x", false),
        ("127.0.0.1:*", "http://127.0.0.1:9999/x", true),
        ("[::1]:8080", "http://[::1]:8080/x", true),
        ("API.Example.com", "https://api.EXAMPLE.com/x", true),
    ])
    func originsMatch(pattern: String, url: String, allowed: Bool) {
        #expect(AllowedHosts([pattern]).allows(origin(url)) == allowed)
    }

    @Test func originOfAURLAllowsOnlyThatOrigin() {
        let hosts = AllowedHosts(origin: URL(string: "http://127.0.0.1:4000/base")!)
        #expect(hosts.allows(origin("http://127.0.0.1:4000/other")))
        #expect(!hosts.allows(origin("http://127.0.0.1:4001/other")))
        #expect(!hosts.allows(origin("http://localhost:4000/other")))
    }
}
