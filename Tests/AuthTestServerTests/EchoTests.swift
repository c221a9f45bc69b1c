// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct EchoTests {
    @Test(arguments: ["GET", "POST", "PUT", "DELETE"])
    func echoDescribesTheRequest(method: String) async throws {
        try await withServer { _, http in
            let body = method == "GET" ? nil : #"{"n":1}"#
            let response = try await http.send(
                method,
                "/echo?a=1&b=two",
                headers: [("X-Trace", "abc"), ("Content-Type", "application/json")],
                body: body
            )
            #expect(response.status == 200)
            let echo = try response.json()
            #expect(echo["method"] as? String == method)
            #expect(echo["path"] as? String == "/echo")
            #expect(echo["query"] as? String == "a=1&b=two")
            #expect(echo["body"] as? String == (body ?? ""))
            let headers = try #require(echo["headers"] as? [String: String])
            #expect(headers["x-trace"] == "abc")
        }
    }

    @Test func echoAcceptsSubpaths() async throws {
        try await withServer { _, http in
            let response = try await http.get("/echo/deep/path")
            #expect(response.status == 200)
            #expect(try response.string("path") == "/echo/deep/path")
        }
    }
}
