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
import Logging
import Testing

@Suite struct LoggingRedactionTests {
    @Test func noSecretAppearsInAnyTraceLine() async throws {
        let capture = CapturingLogHandler.Capture()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) }
        let secrets = ["AccessTok3n-abc", "Refr3sh-xyz", "ApiK3y-123", "P4ssw0rd!", "C00kieVal", "QueryK3y-456", "S3tC00kie"]
        let clock = ManualClock()
        let session = AccountSession(
            account: alice,
            strategy: BearerStrategy(allowedHosts: apiHosts) { _ in BearerTokenSet(accessToken: "AccessTok3n-abc", refreshToken: "Refr3sh-xyz", expiresAt: clock.now().addingTimeInterval(600)) },
            vault: CredentialVault(store: InMemoryCredentialStore(), clock: clock), clock: clock, logger: logger
        )
        try await session.signIn(BearerTokenSet(accessToken: "OldAccess-000", refreshToken: "Refr3sh-xyz", expiresAt: clock.now().addingTimeInterval(-1)))
        let transport = ClosureTransport { request in
            AuthResponse(status: .ok, headerFields: [.setCookie: "sid=S3tC00kie; Path=/", .contentType: "application/json"])
        }
        let client = AuthClient(transport: transport, middlewares: [
            RedirectMiddleware(), RetryMiddleware(clock: clock), AuthenticationMiddleware(session: session), LoggingMiddleware(logger: logger),
        ])
        var request = try AuthRequest(method: .post, url: URL(string: "https://api.example.com/login?api_key=QueryK3y-456&page=1")!, body: Data(#"{"password":"P4ssw0rd!"}"#.utf8))
        request.head.headerFields[HTTPField.Name("X-API-Key")!] = "ApiK3y-123"
        request.head.headerFields[.cookie] = "session=C00kieVal"
        request.head.headerFields[.proxyAuthorization] = "Basic UDRzc3cwcmQh"
        _ = try await client.send(request)
        let basic = BasicCredential(username: "bob", password: "P4ssw0rd!")
        logger.info("credential", metadata: ["value": "\(basic)"])

        let text = capture.text
        #expect(capture.all.count >= 3)
        #expect(text.contains("page=1"))
        #expect(text.contains("<redacted>"))
        for secret in secrets + ["UDRzc3cwcmQh"] {
            #expect(!text.contains(secret), "log contains \(secret)")
        }
    }

    /// A redirect to a URL that carries a token (a presigned download, a private archive) names
    /// it in `Location`: the response's logged fields and its description redact it as a
    /// request's own target is redacted.
    @Test func aRedirectsLocationIsLoggedAndDescribedRedacted() async throws {
        let capture = CapturingLogHandler.Capture()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) }
        let redirect = AuthResponse(status: .found, headerFields: [
            .location: "https://files.example.net/a.tar.gz?token=T0ken-s3cret&part=2",
            .contentLocation: "/a?X-Amz-Signature=S1gn4ture",
        ])
        let client = AuthClient(transport: ClosureTransport { _ in redirect }, middlewares: [LoggingMiddleware(logger: logger)])
        _ = try await client.send(.get, URL(string: "https://api.example.com/download")!)
        for shown in [capture.text, "\(redirect)", String(reflecting: redirect)] {
            #expect(shown.contains("part=2"))
            #expect(!shown.contains("T0ken-s3cret"))
            #expect(!shown.contains("S1gn4ture"))
        }
        var dumped = ""
        dump(redirect, to: &dumped)
        #expect(!dumped.contains("T0ken-s3cret"))
    }

    /// A failed request logs one line with its URL redacted, after the request's own line.
    @Test func aFailureIsLoggedRedacted() async throws {
        let capture = CapturingLogHandler.Capture()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) }
        let client = AuthClient(
            transport: ClosureTransport { _ in throw AuthError.transport("connection refused") },
            middlewares: [LoggingMiddleware(logger: logger, extraSensitiveHeaders: [], extraSensitiveQueryItems: ["ticket"])]
        )
        await #expect(throws: AuthError.self) {
            try await client.send(.get, URL(string: "https://api.example.com/items?ticket=T1ck3t-789&page=2")!)
        }
        let lines = capture.all
        #expect(lines.map(\.message) == ["request", "request failed"])
        let failure = try #require(lines.last)
        #expect(failure.metadata.contains("page=2"))
        #expect(failure.metadata.contains("connection refused"))
        #expect(!capture.text.contains("T1ck3t-789"))
    }

    @Test func nothingIsFormattedAboveDebug() async throws {
        let capture = CapturingLogHandler.Capture()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .info) }
        let client = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .ok) }, middlewares: [LoggingMiddleware(logger: logger)])
        _ = try await client.send(.get, apiURL)
        #expect(capture.all.isEmpty)
    }
}
