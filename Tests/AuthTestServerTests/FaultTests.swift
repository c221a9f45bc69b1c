// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct FaultTests {
    @Test func injected429CarriesRetryAfterThenTheRouteAnswers() async throws {
        try await withServer { server, http in
            server.faults.inject(.status(429, retryAfter: "1"), path: "/echo", times: 1)
            let limited = try await http.get("/echo")
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            #expect(server.faults.remaining(path: "/echo") == 0)
            let normal = try await http.get("/echo")
            #expect(normal.status == 200)
            #expect(try normal.string("method") == "GET")
        }
    }

    @Test func injected503TwiceThenOK() async throws {
        try await withServer { server, http in
            let access = try await http.signUp("alice").string("access_token")
            server.faults.inject(.status(503), path: "/me", times: 2)
            let statuses = try await [http.get("/me", bearer: access), http.get("/me", bearer: access), http.get("/me", bearer: access)]
                .map(\.status)
            #expect(statuses == [503, 503, 200])
        }
    }

    @Test func injectedMalformedJSON() async throws {
        try await withServer { server, http in
            server.faults.inject(.malformedJSON, path: "/me")
            let broken = try await http.get("/me")
            #expect(broken.status == 200)
            #expect(broken.header("Content-Type") == "application/json")
            #expect((try? JSONSerialization.jsonObject(with: broken.body)) == nil)
        }
    }

    @Test func injectedRedirectAndDelay() async throws {
        try await withServer { server, http in
            server.faults.inject(.redirect(to: "http://127.0.0.1:9/elsewhere", status: 307), path: "/echo")
            let redirect = try await http.get("/echo")
            #expect(redirect.status == 307)
            #expect(redirect.header("Location") == "http://127.0.0.1:9/elsewhere")

            server.faults.inject(.delay(.milliseconds(20)), path: "/echo")
            let delayed = try await http.get("/echo")
            #expect(delayed.status == 200)
            #expect(try delayed.string("path") == "/echo")
        }
    }

    @Test func injectedFaultsOnRefreshDoNotConsumeTheToken() async throws {
        try await withServer { server, http in
            let refresh = try await http.signUp("bob").string("refresh_token")
            server.faults.inject(.status(503, retryAfter: "2"), path: "/auth/refresh", times: 1)
            server.faults.inject(.malformedJSON, path: "/auth/refresh", times: 1)
            let form = RefreshTests.form(refresh)

            let unavailable = try await http.postForm("/auth/refresh", form)
            #expect(unavailable.status == 503)
            #expect(unavailable.header("Retry-After") == "2")
            let malformed = try await http.postForm("/auth/refresh", form)
            #expect(malformed.status == 200)
            #expect((try? JSONSerialization.jsonObject(with: malformed.body)) == nil)
            let renewed = try await http.postForm("/auth/refresh", form)
            #expect(renewed.status == 200)
            #expect(try renewed.string("refresh_token") != refresh)
            #expect(server.counters.renewals == 1)
            #expect(server.counters.requests(path: "/auth/refresh") == 3)
        }
    }

    @Test func customResponseFault() async throws {
        try await withServer { server, http in
            let body = #"{"error":"invalid_grant"}"#
            server.faults.inject(.response(status: 400, headers: ["X-Test": "yes"], body: body), path: "/auth/refresh")
            let response = try await http.postForm("/auth/refresh", "grant_type=refresh_token&refresh_token=x")
            #expect(response.status == 400)
            #expect(response.header("X-Test") == "yes")
            #expect(response.text == body)
        }
    }

    @Test func statusEndpointCountsPerKey() async throws {
        try await withServer { _, http in
            let path = "/fault/status/503?times=2&key=a"
            let statuses = try await [http.get(path), http.get(path), http.get(path)].map(\.status)
            #expect(statuses == [503, 503, 200])
            #expect(try await http.get("/fault/status/503?times=2&key=b").status == 503)

            let limited = try await http.get("/fault/status/429?retry_after=1&key=c")
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            let after = try await http.get("/fault/status/429?retry_after=1&key=c")
            #expect(after.status == 200)
            #expect(try after.json()["ok"] as? Bool == true)
            #expect(try await http.get("/fault/status/42").status == 400)
        }
    }

    @Test func slowRedirectAndMalformedEndpoints() async throws {
        try await withServer { _, http in
            let slow = try await http.get("/fault/slow?ms=10")
            #expect(slow.status == 200)
            #expect(try slow.json()["slept_ms"] as? Int == 10)

            let target = "http://localhost:1234/landing?x=1"
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            let redirect = try await http.get("/fault/redirect?to=\(encoded)&status=302")
            #expect(redirect.status == 302)
            #expect(redirect.header("Location") == target)
            #expect(try await http.get("/fault/redirect?to=\(encoded)&status=200").status == 400)
            #expect(try await http.get("/fault/redirect").status == 400)

            let malformed = try await http.get("/fault/malformed-json")
            #expect(malformed.status == 200)
            #expect(malformed.header("Content-Type") == "application/json")
            #expect((try? JSONSerialization.jsonObject(with: malformed.body)) == nil)
        }
    }

    @Test func faultsApplyToPathsWithoutRoutes() async throws {
        try await withServer { server, http in
            let unrouted = try await http.get("/nowhere")
            #expect(unrouted.status == 404)
            server.faults.inject(.status(502), path: "/nowhere")
            let faulted = try await http.get("/nowhere")
            #expect(faulted.status == 502)
        }
    }
}
