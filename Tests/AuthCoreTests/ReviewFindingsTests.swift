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

/// Hostile values a review found past the first fixes (issue 25).
@Suite struct ReviewFindingsTests {
    @Test(arguments: [#""nan""#, #""inf""#, #""1e400""#, "1e300", #""-5""#])
    func anExpiresInFromTheServerIsFiniteAndBounded(value: String) throws {
        let response = try TokenResponse.parse(Data(#"{"access_token":"a","expires_in":\#(value)}"#.utf8))
        let seconds = try #require(response.expiresIn)
        #expect(seconds.isFinite && seconds >= 0 && seconds <= TokenResponse.maximumExpiresIn)
        let tokens = response.tokenSet(issuedAt: Date(timeIntervalSince1970: 1_000))
        // The credential can be stored: JSONEncoder refuses a NaN or infinite date.
        #expect(throws: Never.self) { try JSONEncoder().encode(tokens) }
    }

    @Test func userinfoInAnAuthorityNeverReachesTheLog() async throws {
        let capture = CapturingLogHandler.Capture()
        let logger = Logger(label: "t") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) }
        let client = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .ok) }, middlewares: [LoggingMiddleware(logger: logger)])
        _ = try? await client.send(AuthRequest(head: HTTPRequest(method: .get, scheme: "https", authority: "bob:Passw0rd-s3cr3t@api.example.com", path: "/")))
        #expect(!capture.text.isEmpty)
        #expect(!capture.text.contains("Passw0rd-s3cr3t"))
    }

    @Test func formattingAnyDateNeverTraps() {
        for date in [Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300)] {
            #expect(!HTTPDate.format(date).isEmpty)
        }
    }
}
