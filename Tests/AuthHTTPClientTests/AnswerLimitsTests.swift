// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import Foundation
import Testing

/// Issue 52: an answer AuthKit reads for itself has an overall deadline and a size limit, over
/// a real socket: a token endpoint that sends the right `Content-Length` and then trickles the
/// body held a renewal (and every request of the account) for 35 s and was accepted; a 10 MB
/// token response was accepted.
struct AnswerLimitsTests {
    static let json = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"

    @Test func aTrickledTokenResponseIsCutAtTheDeadline() async throws {
        // 240 bytes, one every half second after the first: two minutes in all (unless the test
        // closes the server first), each gap far below the transport's body read timeout.
        let trickle = (0..<239).map { _ in (pause: Duration.milliseconds(500), bytes: " ") }
        let server = try RawHTTPServer(answer: Self.json + "content-length: 240\r\n\r\n{", later: trickle)
        defer { server.close() }
        try await HTTPClientTransport.withTransport { transport in
            let endpoint = OAuth2TokenEndpoint(url: server.url, clientID: "cli", transport: transport, limits: AnswerLimits(deadline: .seconds(2)))
            let error = await #expect(throws: AuthError.self) { try await endpoint.requestTokens([("grant_type", "client_credentials")]) }
            #expect(error?.code == .timeout)
            #expect(error?.message.contains("the token endpoint did not answer completely within 2") == true)
            #expect(server.wholeAnswersSent == 0, "cut at the trickle's end, not at the deadline")
        }
    }

    @Test(arguments: [true, false])
    func aTokenResponseOverTheSizeLimitIsRefused(announced: Bool) async throws {
        let body = #"{"access_token":""# + String(repeating: "a", count: 2 << 20) + #"","token_type":"Bearer"}"#
        let head = announced ? "content-length: \(body.utf8.count)\r\n\r\n" : "transfer-encoding: chunked\r\n\r\n"
        let payload = announced ? body : String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        let server = try RawHTTPServer(answer: Self.json + head + payload)
        defer { server.close() }
        try await HTTPClientTransport.withTransport { transport in
            let endpoint = OAuth2TokenEndpoint(url: server.url, clientID: "cli", transport: transport)
            let error = await #expect(throws: AuthError.self) { try await endpoint.requestTokens([("grant_type", "client_credentials")]) }
            #expect(error?.code == .responseTooLarge)
            #expect(error?.message.contains("the token endpoint's answer is larger than 1048576 bytes") == true)
        }
    }
}
