// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTestServer
import Foundation
import Testing

/// Provider discovery over real HTTP against AuthTestServer's provider and injected answers: one
/// fetch for concurrent callers, a document for another issuer refused, a failed fetch not kept.
@Suite struct OAuth2DiscoveryTests {
    static let path = "/.well-known/oauth-authorization-server"

    static func document(issuer: String) -> String {
        #"{"issuer":"\#(issuer)","token_endpoint":"\#(issuer)/token","authorization_endpoint":"\#(issuer)/authorize"}"#
    }

    @Test func concurrentCallersShareOneFetch() async throws {
        try await Harness.run { h in
            let issuer = h.base.absoluteString.trimmingCharacters(in: ["/"])
            h.server.faults.inject(.response(status: 200, headers: ["Content-Type": "application/json"], body: Self.document(issuer: issuer)), path: Self.path)
            let provider = OAuth2Provider(issuer: try #require(URL(string: issuer)), transport: h.transport)
            let endpoints = try await concurrently(20) { _ in try await provider.metadata().tokenEndpoint.absoluteString }
            #expect(endpoints.allSatisfy { $0 == issuer + "/token" })
            #expect(h.server.counters.requests(path: Self.path) == 1)
        }
    }

    @Test func aDocumentForAnotherIssuerIsRefusedAndAFailedFetchIsNotKept() async throws {
        try await Harness.run { h in
            let issuer = h.base.absoluteString.trimmingCharacters(in: ["/"])
            h.server.faults.inject(.response(status: 200, headers: ["Content-Type": "application/json"], body: Self.document(issuer: "https://evil.example")), path: Self.path)
            let provider = OAuth2Provider(issuer: try #require(URL(string: issuer)), transport: h.transport)
            await #expect { try await provider.metadata() } throws: { ($0 as? AuthError)?.code == .misconfigured && ($0 as? AuthError)?.message.contains("evil.example") == true }
            // Fetched again (the server's own provider answers now), not the refusal replayed.
            #expect(try await provider.metadata().issuer.absoluteString == issuer)
            #expect(h.server.counters.requests(path: Self.path) == 2)
        }
    }
}
