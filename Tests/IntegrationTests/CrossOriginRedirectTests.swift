// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthSigning
import AuthTestServer
import AuthTesting
import Crypto
import Foundation
import HTTPTypes
import Testing

/// Credentials never leave their origin (issue 24), over real HTTP: the allowed origin (an
/// AuthTestServer on 127.0.0.1) answers each redirect status with a hop to another port of the
/// same host, to 127.0.0.2 and to `localhost`; each of those foreign servers receives no
/// credential of any kind, and the allowed origin still receives every one after a redirect to
/// itself.
@Suite struct CrossOriginRedirectTests {
    static let statuses = [301, 302, 303, 307, 308]

    @Test(arguments: CredentialKind.allCases)
    func noCredentialReachesAForeignOriginOnAnyRedirect(kind: CredentialKind) async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning { otherPort in
                try await AuthTestServer.withRunning(configuration: .init(host: "127.0.0.2")) { otherAddress in
                    let setup = try await kind.setUp(h)
                    let recorder = EventRecorder(setup.events)
                    let portB = try #require(otherPort.baseURL.port), portC = try #require(otherAddress.baseURL.port)
                    let foreign: [(name: String, base: String, server: AuthTestServer)] = [
                        ("another port", "http://127.0.0.1:\(portB)", otherPort),
                        ("127.0.0.2", "http://127.0.0.2:\(portC)", otherAddress),
                        ("localhost", "http://localhost:\(portB)", otherPort),
                    ]
                    for status in Self.statuses {
                        for (index, target) in foreign.enumerated() {
                            let path = "/echo/\(kind)/\(status)/\(index)"
                            // The Location echoes the query, API key included, as a careless server would.
                            h.server.faults.inject(.redirect(to: target.base + path + "?svc_auth=svc-query-k3y&page=2", status: status), path: path)
                            let response = try await setup.send(h.url(String(path.dropFirst())))
                            #expect(response.status == .ok, "\(kind) \(status) → \(target.name)")
                            #expect(target.server.counters.requests(path: path) == 1, "\(kind) \(status): the hop to \(target.name) did not arrive")
                            let received = Received(headers: target.server.counters.lastHeaders(path: path), query: target.server.counters.lastQuery(path: path))
                            let leaks = setup.leaks(in: received, sameHost: target.name == "another port")
                            #expect(leaks.isEmpty, "\(kind) \(status) → \(target.name) received \(leaks)")
                        }
                        let path = "/echo/\(kind)/\(status)/same", landing = path + "-landing"
                        h.server.faults.inject(.redirect(to: landing + "?page=2", status: status), path: path)
                        #expect(try await setup.send(h.url(String(path.dropFirst()))).status == .ok)
                        let received = Received(headers: h.server.counters.lastHeaders(path: landing), query: h.server.counters.lastQuery(path: landing))
                        let missing = setup.missing(from: received, methodKept: status == 307 || status == 308)
                        #expect(missing.isEmpty, "\(kind) \(status): the allowed origin, after a redirect to itself, lacks \(missing)")
                    }
                    let seen = await recorder.waitFor { events in events.contains { $0.withheldOrigin == "http://127.0.0.2:\(portC)" } }
                    let withheld = seen.compactMap(\.withheld)
                    #expect(withheld.contains { $0.origin == "http://127.0.0.2:\(portC)" && $0.credential.contains(setup.label) }, "no credentialWithheld event for \(kind): \(withheld)")
                    for event in withheld {
                        #expect(setup.secrets.allSatisfy { !event.description.contains($0) }, "the event shows a secret: \(event)")
                    }
                }
            }
        }
    }
}

extension CrossOriginRedirectTests {
    /// Issue 52: a header the caller added by hand and marked nothing (`X-Custom-Key`) went to
    /// the new origin of a redirect, as in browsers. Only the safelist (and what the request names
    /// as safe for every origin) follows a hop to another origin; the same origin keeps all.
    @Test(arguments: [307, 302])
    func onlySafelistedHeadersFollowAHopToAnotherOrigin(status: Int) async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning(configuration: .init(host: "127.0.0.2")) { other in
                let port = try #require(other.baseURL.port)
                let client = h.container().makeClient(for: AccountKey(namespace: "origins", account: "custom"), strategy: APIKeyHeaderStrategy(allowedHosts: h.hosts))
                try await client.signIn(APIKeyHeaderCredential(headerName: "X-Service-Token", key: "svc-header-k3y"))
                let fields: HTTPFields = [
                    .accept: "application/json", .contentType: "application/json", HTTPField.Name("X-Custom-Key")!: "hand-made-k3y",
                    HTTPField.Name("traceparent")!: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                    HTTPField.Name("X-Request-Tag")!: "portable",
                ]
                var options = RequestOptions()
                options.headersForEveryOrigin = ["x-request-tag"]
                let path = "/echo/custom/\(status)"
                h.server.faults.inject(.redirect(to: "http://127.0.0.2:\(port)\(path)", status: status), path: path)
                let response = try await client.send(.post, h.url(String(path.dropFirst())), headerFields: fields, body: Data("{}".utf8), options: options)
                #expect(response.status == .ok)
                let foreign = other.counters.lastHeaders(path: path)
                #expect(foreign["accept"] == "application/json")
                #expect(foreign["traceparent"] != nil)
                #expect(foreign["x-request-tag"] == "portable")
                #expect(foreign["x-custom-key"] == nil)
                #expect(foreign["x-service-token"] == nil)
                if status == 307 { #expect(foreign["content-type"] == "application/json") }  // the body follows a 307 only

                let same = "/echo/custom/\(status)/same", landing = same + "-landing"
                h.server.faults.inject(.redirect(to: landing, status: status), path: same)
                _ = try await client.send(.get, h.url(String(same.dropFirst())), headerFields: fields)
                #expect(h.server.counters.lastHeaders(path: landing)["x-custom-key"] == "hand-made-k3y")
            }
        }
    }
}

extension CrossOriginRedirectTests {
    /// A server that echoes a query key into a redirect to another origin may write it again in
    /// its own way: escapes in lower-case hex, a `/` left unescaped, the name in capitals. The
    /// echo is still taken off (it was compared byte for byte with what the credential writes).
    @Test(arguments: ["svc_auth=k3y%2fwith%2bslash", "svc_auth=k3y/with%2Bslash", "SVC_AUTH=k3y%2Fwith%2Bslash"])
    func anEchoedQueryKeyWrittenAnotherWayIsTakenOff(echo: String) async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning(configuration: .init(host: "127.0.0.2")) { other in
                let port = try #require(other.baseURL.port)
                let client = h.container().makeClient(for: AccountKey(namespace: "origins", account: "query"), strategy: APIKeyQueryStrategy(allowedHosts: h.hosts))
                try await client.signIn(APIKeyQueryCredential(parameterName: "svc_auth", key: "k3y/with+slash"))
                let path = "/echo/query/reencoded"
                h.server.faults.inject(.redirect(to: "http://127.0.0.2:\(port)\(path)?\(echo)&page=2", status: 302), path: path)
                #expect(try await client.send(.get, h.url(String(path.dropFirst()))).status == .ok)
                let query = other.counters.lastQuery(path: path)
                #expect(query.contains("page=2"))
                #expect(!query.lowercased().contains("k3y"), "the foreign origin received \(query)")
            }
        }
    }
}

extension AuthEvent {
    /// The origin of a ``AuthEvent/credentialWithheld(_:)`` event.
    var withheldOrigin: String? { withheld?.origin }

    /// What a ``AuthEvent/credentialWithheld(_:)`` event reports.
    var withheld: CredentialWithheld? {
        if case .credentialWithheld(let withheld) = self { withheld } else { nil }
    }
}

/// What a server received: lower-cased header names, the raw query.
struct Received {
    let headers: [String: String]
    let query: String
}

/// Every kind of credential AuthKit puts on requests.
enum CredentialKind: String, CaseIterable, CustomStringConvertible {
    case bearer, apiKeyHeader, apiKeyQuery, basic, cookieSession, hmac, sigV4SessionToken, messageSignature, secretStaticHeaders

    var description: String { rawValue }

    /// A client that carries this credential to the harness's origin, and what to look for.
    func setUp(_ h: Harness) async throws -> CredentialSetup {
        let container = self == .cookieSession ? h.cookieContainer() : h.container()
        let account = AccountKey(namespace: "origins", account: rawValue)
        switch self {
        case .bearer:
            try await h.register("bearer-user")
            let tokens = try await h.login("bearer-user")
            let client = container.makeClient(for: account, strategy: h.bearer())
            try await client.signIn(tokens)
            return CredentialSetup(container, { try await client.send($0) }, label: "BearerTokenSet", names: ["authorization"], secrets: [tokens.accessToken.reveal, try #require(tokens.refreshToken).reveal])
        case .apiKeyHeader:
            let client = container.makeClient(for: account, strategy: APIKeyHeaderStrategy(allowedHosts: h.hosts))
            try await client.signIn(APIKeyHeaderCredential(headerName: "X-Service-Token", key: "svc-header-k3y"))
            return CredentialSetup(container, { try await client.send($0) }, label: "APIKeyHeaderCredential", names: ["x-service-token"], secrets: ["svc-header-k3y"])
        case .apiKeyQuery:
            let client = container.makeClient(for: account, strategy: APIKeyQueryStrategy(allowedHosts: h.hosts))
            try await client.signIn(APIKeyQueryCredential(parameterName: "svc_auth", key: "svc-query-k3y"))
            return CredentialSetup(container, { try await client.send($0) }, label: "APIKeyQueryCredential", names: [], secrets: ["svc-query-k3y"], querySecrets: ["svc-query-k3y"])
        case .basic:
            let client = container.makeClient(for: account, strategy: BasicStrategy(allowedHosts: h.hosts))
            try await client.signIn(BasicCredential(username: "basic-user", password: "basic-pa55word"))
            let encoded = Data("basic-user:basic-pa55word".utf8).base64EncodedString()
            return CredentialSetup(container, { try await client.send($0) }, label: "BasicCredential", names: ["authorization"], secrets: [encoded])
        case .cookieSession:
            let session = try await h.cookieSessionClient("cookie-user", container: container)
            let cookies = session.strategy.jar.allCookies.map(\.value)
            return CredentialSetup(container, { try await session.client.send($0) }, label: "CookieSessionCredential", names: ["cookie", "x-csrf-token"], secrets: cookies, sameHostAllowed: ["cookie"], unsafeMethodsOnly: ["x-csrf-token"])
        case .hmac:
            container.useRequestSigner(HMACRequestSigner(keyID: SignedTestKeys.hmacKeyID, key: SignedTestKeys.hmacSecret))
            return try await signed(container, account, h, label: "HMACRequestSigner signature", names: ["x-signature", "x-key-id", "x-nonce"], secrets: [])
        case .sigV4SessionToken:
            let credentials = AWSCredentials(accessKeyID: "AKIDORIGINTEST0001", secretAccessKey: "origin/test/secret", sessionToken: "Origin-S3ssion-T0ken")
            container.useRequestSigner(SigV4Signer(credentials: credentials, configuration: SignedTestKeys.sigV4Configuration))
            return try await signed(container, account, h, label: "SigV4Signer signature", names: ["authorization", "x-amz-security-token"], secrets: ["AKIDORIGINTEST0001", "Origin-S3ssion-T0ken"])
        case .messageSignature:
            let signer = HTTPMessageSigner(keyID: SignedTestKeys.messageHMACKeyID, key: .hmacSHA256(SignedTestKeys.messageHMACSecret), components: [.method, .authority, .path])
            container.useRequestSigner(signer)
            return try await signed(container, account, h, label: "HTTPMessageSigner signature", names: ["signature", "signature-input"], secrets: [SignedTestKeys.messageHMACKeyID])
        case .secretStaticHeaders:
            container.markSecret(SecretFieldNames(headers: ["X-Tenant-Secret"]))
            container.override(DefaultHeadersKey.self, with: [HTTPField.Name("X-Tenant-Secret")!: "Tenant-s3cret", .authorization: "Static Auth-s3cret"])
            return try await signed(container, account, h, label: "x-tenant-secret", names: ["x-tenant-secret", "authorization"], secrets: ["Tenant-s3cret", "Auth-s3cret"])
        }
    }

    /// An account client whose own credential (an API key) stays out of the way of what is checked.
    private func signed(_ container: AuthContainer, _ account: AccountKey, _ h: Harness, label: String, names: [String], secrets: [String]) async throws -> CredentialSetup {
        let client = container.makeClient(for: account, strategy: APIKeyHeaderStrategy(allowedHosts: h.hosts))
        try await client.signIn(APIKeyHeaderCredential(headerName: "X-Account-Key", key: "account-k3y"))
        return CredentialSetup(container, { try await client.send($0) }, label: label, names: names + ["x-account-key"], secrets: secrets + ["account-k3y"])
    }
}

/// A client with one credential on it, and the names and values that must not reach a foreign
/// origin (and must reach the allowed one).
struct CredentialSetup {
    let events: AuthEvents
    /// What the credential's ``CredentialWithheld`` event names.
    let label: String
    let sendRequest: @Sendable (AuthRequest) async throws -> AuthResponse
    let names: [String]
    let secrets: [String]
    var querySecrets: [String] = []
    /// Names RFC 6265 lets reach another port of the same host: cookies do not isolate ports.
    var sameHostAllowed: Set<String> = []
    /// Names sent only with unsafe methods (a CSRF header), so not after a hop that became GET.
    var unsafeMethodsOnly: Set<String> = []

    init(_ container: AuthContainer, _ send: @escaping @Sendable (AuthRequest) async throws -> AuthResponse, label: String, names: [String], secrets: [String], querySecrets: [String] = [], sameHostAllowed: Set<String> = [], unsafeMethodsOnly: Set<String> = []) {
        self.events = container[AuthEventsKey.self]
        self.label = label
        self.sendRequest = send
        self.names = names
        self.secrets = secrets
        self.querySecrets = querySecrets
        self.sameHostAllowed = sameHostAllowed
        self.unsafeMethodsOnly = unsafeMethodsOnly
    }

    /// A POST, so that 307 and 308 keep the method and body (and a CSRF header applies).
    func send(_ url: URL) async throws -> AuthResponse {
        try await sendRequest(AuthRequest(method: .post, url: url, headerFields: [.contentType: "text/plain"], body: Data("hello".utf8)))
    }

    /// The credential names and values a foreign server received.
    func leaks(in received: Received, sameHost: Bool) -> [String] {
        let headers = received.headers.filter { !(sameHost && sameHostAllowed.contains($0.key)) }
        var found = names.filter { headers[$0] != nil }.map { "field \($0)" }
        for secret in secrets where headers.values.contains(where: { $0.contains(secret) }) || received.query.contains(secret) {
            found.append("a secret value in \(headers.first { $0.value.contains(secret) }?.key ?? "the query")")
        }
        return found
    }

    /// The credential names and query values the allowed origin did not receive.
    func missing(from received: Received, methodKept: Bool) -> [String] {
        let expected = names.filter { methodKept || !unsafeMethodsOnly.contains($0) }
        return expected.filter { received.headers[$0] == nil } + querySecrets.filter { !received.query.contains($0) }
    }
}
