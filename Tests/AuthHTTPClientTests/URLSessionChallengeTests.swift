// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// URLSession answers no authentication challenge itself: a transport never retries, and a
/// credential goes only where a strategy allows it. With a configuration whose credential
/// storage (`.default`'s is `URLCredentialStorage.shared`) holds a password for the origin,
/// FoundationNetworking would take up a `401` with `WWW-Authenticate: Basic` behind the
/// pipeline's back.
@Suite(.serialized) struct URLSessionChallengeTests {
    /// Known issue: on FoundationNetworking (Swift 6.3.1) such a `401` never completes, with a
    /// stored credential or without one (the transport's session has no credential storage now);
    /// the transport's deadline ends it with `.timeout`. Not yet understood; when it passes,
    /// remove `withKnownIssue`.
    @Test func aBasicChallengeIsHandedBackNotAnswered() async throws {
        let server = try RawHTTPServer(answer: "HTTP/1.1 401 Unauthorized\r\nwww-authenticate: Basic realm=\"authkit\"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        defer { server.close() }
        let space = URLProtectionSpace(host: "127.0.0.1", port: server.port, protocol: "http", realm: "authkit", authenticationMethod: NSURLAuthenticationMethodHTTPBasic)
        let stored = URLCredential(user: "stored-user", password: "stored-password", persistence: .forSession)
        URLCredentialStorage.shared.setDefaultCredential(stored, for: space)
        defer { URLCredentialStorage.shared.remove(stored, for: space) }
        let transport = URLSessionTransport(configuration: .default, timeout: .seconds(3))
        await withKnownIssue("FoundationNetworking does not complete a 401 with a Basic challenge") {
            let response = try await transport.send(AuthRequest(method: .get, url: server.url))
            #expect(response.status == .unauthorized)
        }
        #expect(server.requestHeads.count == 1, "\(server.requestHeads)")
        #expect(!server.requestHeads.contains { $0.lowercased().contains("authorization:") })
    }

    /// A `401` with a `Bearer` challenge, as every expired access token gets, comes back as it
    /// is, at once: the strategy, not URLSession, renews the credential.
    @Test(arguments: [#"Bearer error="invalid_token""#, #"DPoP algs="ES256", error="invalid_token""#])
    func aBearerChallengeComesBackAsTheResponse(challenge: String) async throws {
        let server = try RawHTTPServer(answer: "HTTP/1.1 401 Unauthorized\r\nwww-authenticate: \(challenge)\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        defer { server.close() }
        let transport = URLSessionTransport(timeout: .seconds(10))
        let response = try await transport.send(AuthRequest(method: .get, url: server.url, headerFields: [.authorization: "Bearer expired"]))
        #expect(response.status == .unauthorized)
        #expect(response.head.headerFields[.wwwAuthenticate] == challenge)
        #expect(server.requestHeads.count == 1)
    }

    /// The caller's configuration stays as it was: the transport changes a copy.
    @Test func theCallersConfigurationIsNotChanged() {
        let configuration = URLSessionConfiguration.default
        let storage = configuration.urlCredentialStorage
        _ = URLSessionTransport(configuration: configuration)
        #expect(configuration.urlCredentialStorage === storage)
        #expect(configuration.httpShouldSetCookies)
        #expect(configuration.httpCookieAcceptPolicy != .never)
    }
}
