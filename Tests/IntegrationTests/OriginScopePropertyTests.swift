// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import AuthTesting
import Crypto
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// For random pipelines (every order of the credential-bearing middlewares and the redirect
/// middleware) and random redirect chains, no secret ever reaches an origin its configuration does
/// not allow (issue 24). Pure pipeline logic: the transport answers from the chain and records
/// what it was asked to send.
@Suite struct OriginScopePropertyTests {
    /// The origins a chain walks through: the allowed ones, another port, another host, a
    /// subdomain, a downgrade to http, and a loopback host over https and then http (which
    /// AllowedHosts lets use http, but never as the continuation of an https request).
    static let origins = ["https://a.example", "https://a.example:8443", "https://b.example", "https://sub.a.example", "http://a.example", "https://127.0.0.1", "http://127.0.0.1"]
    static let patterns = ["a.example", "a.example:8443", "b.example", "*.a.example", "127.0.0.1"]

    @Test func noSecretReachesAnOriginItsConfigurationDoesNotAllow() async throws {
        var random = SeededRandom(seed: 0x0_24)
        var foreignRequests = 0
        for round in 0..<300 {
            let credentials = PropertyCredential.allCases.map { ($0, Self.randomHosts(&random)) }
            let pipeline = try await Self.pipeline(credentials, random: &random)
            let chain = (0...Int.random(in: 0...4, using: &random)).map { _ in Self.origins.randomElement(using: &random)! }
            let statuses = chain.map { _ in [301, 302, 303, 307, 308].randomElement(using: &random)! }
            let sent = Mutex<[AuthRequest]>([])
            let transport = ClosureTransport { request in
                sent.withLock { $0.append(request) }
                let parts = (request.head.path ?? "").split(separator: "?", maxSplits: 1)
                let hop = Int(parts.first?.split(separator: "/").last ?? "") ?? 0
                guard hop + 1 < chain.count else { return AuthResponse(status: .ok) }
                // The Location echoes the query it received, API key included, as a careless
                // server would.
                let query = parts.count == 2 ? "?\(parts[1])" : ""
                return AuthResponse(status: .init(code: statuses[hop]), headerFields: [.location: "\(chain[hop + 1])/hop/\(hop + 1)\(query)"])
            }
            let client = AuthClient(transport: transport, middlewares: pipeline.middlewares)
            let response = try await client.send(.post, URL(string: "\(chain[0])/hop/0")!, body: Data("body".utf8))
            #expect(response.status == .ok)
            let requests = sent.withLock { $0 }
            try #require(requests.count == chain.count, "round \(round)")
            var downgraded = false
            for (index, request) in requests.enumerated() {
                let origin = try #require(request.origin)
                if index > 0, requests[index - 1].origin?.isSecure == true, !origin.isSecure { downgraded = true }
                let text = Self.wireText(request)
                for (credential, hosts) in credentials {
                    if hosts.allows(origin), !(downgraded && !origin.isSecure) {
                        // The first request passes through every middleware, wherever it sits
                        // (unless another allowed credential writes the same field).
                        let shadowed = credentials.contains { $0.0 != credential && $0.0.field != nil && $0.0.field == credential.field && $0.1.allows(origin) }
                        if index == 0 && !shadowed {
                            #expect(credential.appears(in: request, text: text), "round \(round): \(credential) missing on the first request to \(origin) (\(pipeline.order))")
                        }
                    } else {
                        foreignRequests += 1
                        #expect(!credential.appears(in: request, text: text), "round \(round): \(credential) reached \(origin) (hop \(index), \(pipeline.order))")
                    }
                }
            }
        }
        #expect(foreignRequests > 1000, "the property was exercised \(foreignRequests) times")
    }

    static func randomHosts(_ random: inout SeededRandom) -> AllowedHosts {
        AllowedHosts(patterns.filter { _ in Bool.random(using: &random) })
    }

    /// Every header field and the target, as the transport would write them.
    static func wireText(_ request: AuthRequest) -> String {
        ([request.head.path ?? ""] + request.head.headerFields.map { "\($0.name.canonicalName): \($0.value)" }).joined(separator: "\n")
    }

    /// The credential middlewares and a redirect middleware, in a random order.
    static func pipeline(_ credentials: [(PropertyCredential, AllowedHosts)], random: inout SeededRandom) async throws -> (middlewares: [any Middleware], order: String) {
        var named: [(String, any Middleware)] = [("redirect", RedirectMiddleware())]
        for (credential, hosts) in credentials {
            named.append((credential.rawValue, try await credential.middleware(hosts)))
        }
        named.shuffle(using: &random)
        return (named.map(\.1), named.map(\.0).joined(separator: " → "))
    }
}

/// One secret of each kind, with its middleware and what shows it on a request.
enum PropertyCredential: String, CaseIterable {
    case bearer, apiKeyQuery, basic, secretHeader, hmac, sigV4, messageSignature

    func middleware(_ hosts: AllowedHosts) async throws -> any Middleware {
        let container = AuthContainer()
        let account = AccountKey(namespace: "property", account: rawValue)
        let coordinator = container[SessionRegistryKey.self]
        switch self {
        case .bearer:
            let session = coordinator.session(for: account, strategy: BearerStrategy(allowedHosts: hosts) { $0 })
            try await session.signIn(BearerTokenSet(accessToken: "prop-bearer-token"))
            return AuthenticationMiddleware(session: session)
        case .apiKeyQuery:
            let session = coordinator.session(for: account, strategy: APIKeyQueryStrategy(allowedHosts: hosts))
            try await session.signIn(APIKeyQueryCredential(parameterName: "tenant_key", key: "prop-query-key"))
            return AuthenticationMiddleware(session: session)
        case .basic:
            let session = coordinator.session(for: account, strategy: BasicStrategy(allowedHosts: hosts))
            try await session.signIn(BasicCredential(username: "prop-user", password: "prop-password"))
            return AuthenticationMiddleware(session: session)
        case .secretHeader:
            return HeadersMiddleware([HTTPField.Name("X-Tenant-Secret")!: "prop-static-secret"], secretFields: SecretFieldNames(headers: ["x-tenant-secret"]), secretScope: CredentialScope(allowedHosts: hosts))
        case .hmac:
            return SigningMiddleware(signer: HMACRequestSigner(keyID: "prop-hmac", key: SymmetricKey(data: Data("prop hmac key".utf8))), allowedHosts: hosts)
        case .sigV4:
            let credentials = AWSCredentials(accessKeyID: "AKIDPROPERTY", secretAccessKey: "prop/secret", sessionToken: "prop-session-token")
            return SigningMiddleware(signer: SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "execute-api")), allowedHosts: hosts)
        case .messageSignature:
            let signer = HTTPMessageSigner(keyID: "prop-rfc9421", key: .hmacSHA256(SymmetricKey(data: Data("prop rfc9421 key".utf8))), components: [.method, .authority])
            return SigningMiddleware(signer: signer, allowedHosts: hosts)
        }
    }

    /// The field it shares with other kinds, if any (the last writer wins there).
    var field: String? {
        switch self {
        case .bearer, .basic, .sigV4: "authorization"
        default: nil
        }
    }

    /// Whether the request carries this credential.
    func appears(in request: AuthRequest, text: String) -> Bool {
        switch self {
        case .bearer: text.contains("prop-bearer-token")
        case .apiKeyQuery: text.contains("prop-query-key")
        case .basic: text.contains(Data("prop-user:prop-password".utf8).base64EncodedString())
        case .secretHeader: text.contains("prop-static-secret")
        case .hmac: text.contains("x-signature:") || text.contains("prop-hmac")
        case .sigV4: text.contains("AKIDPROPERTY") || text.contains("prop-session-token")
        case .messageSignature: text.contains("prop-rfc9421")
        }
    }
}
