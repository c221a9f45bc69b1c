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
import Testing

/// Secret header values go only to their origins; what is held back is reported without the
/// secret (issue 24).
@Suite struct CredentialScopeTests {
    static let tenant = HTTPField.Name("X-Tenant-Secret")!

    /// Answers 200 and records every request it is asked to send.
    final class Recorder: Sendable {
        let seen = Mutex<[AuthRequest]>([])
        var transport: ClosureTransport {
            ClosureTransport { request in
                self.seen.withLock { $0.append(request) }
                return AuthResponse(status: .ok)
            }
        }
        var last: AuthRequest? { seen.withLock { $0.last } }
    }

    func headers(_ events: AuthEvents) -> HeadersMiddleware {
        HeadersMiddleware(
            [.userAgent: "AuthKit-test/1", Self.tenant: "Tenant-s3cret", .authorization: "Static Auth-s3cret"],
            secretFields: SecretFieldNames(headers: ["x-tenant-secret"]),
            secretScope: CredentialScope(allowedHosts: AllowedHosts(["api.example.com"]), account: AccountKey(namespace: "n", account: "alice"), events: events),
            dynamic: { _ in [.deviceID: "device-1", .proxyAuthorization: "Dynamic Proxy-s3cret"] })
    }

    @Test func secretValuesGoOnlyToTheirOriginsAndAreMarked() async throws {
        let recorder = Recorder()
        let client = AuthClient(transport: recorder.transport, middlewares: [headers(AuthEvents())])
        _ = try await client.send(.get, URL(string: "https://api.example.com/me")!)
        let allowed = try #require(recorder.last)
        #expect(allowed.head.headerFields[Self.tenant] == "Tenant-s3cret")
        #expect(allowed.head.headerFields[.authorization] == "Static Auth-s3cret")
        #expect(allowed.head.headerFields[.proxyAuthorization] == "Dynamic Proxy-s3cret")
        #expect(allowed.options.secretFields.containsHeader("x-tenant-secret"))

        for foreign in ["https://other.example.net/me", "https://api.example.com:8443/me", "http://api.example.com/me"] {
            _ = try await client.send(.get, URL(string: foreign)!)
            let sent = try #require(recorder.last)
            #expect(sent.head.headerFields[.userAgent] == "AuthKit-test/1", "\(foreign)")
            #expect(sent.head.headerFields[.deviceID] == "device-1", "\(foreign)")
            #expect(sent.head.headerFields[Self.tenant] == nil, "\(foreign)")
            #expect(sent.head.headerFields[.authorization] == nil, "\(foreign)")
            #expect(sent.head.headerFields[.proxyAuthorization] == nil, "\(foreign)")
        }
    }

    @Test func aStaticSecretFollowsASameOriginRedirectButNotAForeignOne() async throws {
        let recorder = Recorder()
        let transport = ClosureTransport { request in
            recorder.seen.withLock { $0.append(request) }
            switch request.head.path {
            case "/start": return AuthResponse(status: .temporaryRedirect, headerFields: [.location: "/same"])
            case "/same": return AuthResponse(status: .found, headerFields: [.location: "https://other.example.net/away"])
            default: return AuthResponse(status: .ok)
            }
        }
        // The headers middleware outside the redirect middleware: the hop drops what it marked.
        let client = AuthClient(transport: transport, middlewares: [headers(AuthEvents()), RedirectMiddleware()])
        _ = try await client.send(.get, URL(string: "https://api.example.com/start")!)
        let sent = recorder.seen.withLock { $0 }
        try #require(sent.count == 3)
        #expect(sent[1].head.headerFields[Self.tenant] == "Tenant-s3cret")
        #expect(sent[2].head.headerFields[Self.tenant] == nil)
        #expect(sent[2].head.headerFields[.authorization] == nil)
        #expect(sent[2].head.headerFields[.userAgent] == "AuthKit-test/1")
    }

    @Test func aWithheldSecretIsReportedWithoutItsValue() async throws {
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let client = AuthClient(transport: Recorder().transport, middlewares: [headers(events)])
        _ = try await client.send(.get, URL(string: "https://other.example.net/me")!)
        let seen = await recorder.waitFor { $0.count >= 2 }
        let withheld: [CredentialWithheld] = seen.compactMap { if case .credentialWithheld(let w) = $0 { w } else { nil } }
        #expect(withheld.count == 2)  // the static secrets, then the dynamic one
        #expect(withheld.first?.origin == "https://other.example.net:443")
        #expect(withheld.first?.account == AccountKey(namespace: "n", account: "alice"))
        #expect(withheld.first?.credential.contains("x-tenant-secret") == true)
        for event in seen {
            #expect(!event.description.contains("s3cret"), "\(event)")
        }
    }

    @Test func theHeadersMiddlewareDescribesNoValue() {
        let middleware = headers(AuthEvents())
        for text in [middleware.description, middleware.debugDescription, String(reflecting: middleware), "\(Mirror(reflecting: middleware).children.map(\.value))"] {
            #expect(!text.contains("s3cret") && text.contains("X-Tenant-Secret"), "\(text)")
        }
    }

    /// A request whose authority cannot be read is never given a secret, and the event does not
    /// quote the authority (it may hold user information).
    @Test func anUnreadableAuthorityGetsNoSecret() async throws {
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let scope = CredentialScope(allowedHosts: AllowedHosts(["api.example.com"]), events: events)
        let request = AuthRequest(head: HTTPRequest(method: .get, scheme: "https", authority: "user:pa55@api.example.com", path: "/"))
        #expect(!scope.admits(request, credential: "test credential"))
        let seen = await recorder.waitFor { !$0.isEmpty }
        #expect(seen.map(\.description) == ["credentialWithheld(-): test credential withheld from an unreadable origin"])
    }
}

/// A redirect from https to http keeps every credential off the http hop, even for a loopback
/// host that ``AllowedHosts`` lets use http.
@Suite struct DowngradeTests {
    @Test func aLoopbackHTTPHopAfterHTTPSGetsNoCredential() async throws {
        let container = AuthContainer()
        let seen = Mutex<[AuthRequest]>([])
        container.override(TransportKey.self, with: ClosureTransport { request in
            seen.withLock { $0.append(request) }
            guard request.head.path == "/start" else { return AuthResponse(status: .ok) }
            return AuthResponse(status: .temporaryRedirect, headerFields: [.location: "http://127.0.0.1:8443/landing"])
        })
        let client = container.makeClient(for: AccountKey(namespace: "n", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["127.0.0.1:8443"])) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "loopback-t0ken"))
        _ = try await client.send(.get, URL(string: "https://127.0.0.1:8443/start")!)
        let sent = seen.withLock { $0 }
        try #require(sent.count == 2)
        #expect(sent[0].head.headerFields[.authorization] == "Bearer loopback-t0ken")
        #expect(sent[1].head.scheme == "http")
        #expect(sent[1].head.headerFields[.authorization] == nil)
        // A request the caller sends over http to the loopback host itself still gets it.
        _ = try await client.send(.get, URL(string: "http://127.0.0.1:8443/landing")!)
        #expect(seen.withLock { $0.last?.head.headerFields[.authorization] } == "Bearer loopback-t0ken")
    }
}
