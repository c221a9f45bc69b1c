// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A scope keeps its answer for the scheme and authority asked about last: whatever came before,
/// each request gets the answer the allowed hosts give it afresh.
@Suite struct ScopeLastAnswerTests {
    @Test func eachRequestGetsItsOwnAnswer() async throws {
        let hosts = AllowedHosts(["api.example.com", "*.example.org", "localhost", "kevin.example.com"])
        let scope = CredentialScope(allowedHosts: hosts)
        let texts = [
            "https://api.example.com/a", "http://api.example.com/a", "https://API.example.com/a", "https://api.example.com:8443/a",
            "https://evil.example.com/a", "https://a.example.org/", "https://example.org/", "http://localhost:8080/",
            "http://127.0.0.1:8080/", "https://api.example.com.evil.test/", "wss://api.example.com/socket",
        ]
        var requests = try texts.map { try AuthRequest(method: .get, url: #require(URL(string: $0))) }
        var moved = requests[0]
        moved.head.authority = "evil.example.com"
        requests.append(moved)
        moved.head.scheme = "http"
        requests.append(moved)
        // Authorities Swift's `==` takes as equal (a Kelvin sign for the `K`), whose bytes differ:
        // the first is allowed, the second is not a host name at all.
        #expect("Kevin.example.com" == "\u{212A}evin.example.com")
        for authority in ["Kevin.example.com", "\u{212A}evin.example.com"] {
            requests.append(AuthRequest(head: HTTPRequest(method: .get, scheme: "https", authority: authority, path: "/")))
        }
        // Requests a client made from URLs, each three times: the second and third share the
        // first's head storage, by which the scope knows them once it has kept it.
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok)
        })
        for text in texts.prefix(4).flatMap({ [$0, $0, $0] }) { _ = try await client.send(.get, #require(URL(string: text))) }
        let madeByAClient = sent.withLock { $0 }
        requests += madeByAClient
        // And such requests changed on their way: storage of their own.
        for request in madeByAClient.prefix(3) {
            var moved = request
            moved.head.authority = "evil.example.com"
            requests.append(moved)
        }
        var admitted = 0
        for first in requests {
            for second in requests {
                for request in [first, second, second] {
                    let expected = hosts.allows(request)
                    #expect(scope.admits(request, credential: "test") == expected, "\(request.head)")
                    if expected { admitted += 1 }
                }
            }
        }
        #expect(admitted > 0 && admitted < requests.count * requests.count * 3)
    }
}
