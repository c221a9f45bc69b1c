// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
import Testing

/// RFC 6265 §5.4: one `Cookie` field per request on an HTTP/1.1 connection (issue 17).
@Suite struct CookieFieldTests {
    @Test func cookiesGoOutAsOneFieldOnTheWire() async throws {
        let server = try RawHTTPServer()
        defer { server.close() }
        try await HTTPClientTransport.withTransport { transport in
            var request = try AuthRequest(method: .get, url: server.url.appending(path: "cookies"))
            request.head.headerFields[HTTPField.Name("X-Before")!] = "1"
            // HTTPFields keeps one field per cookie (the HTTP/2 form).
            request.head.headerFields[.cookie] = "session=abc; csrf_access_token=def; theme=dark"
            request.head.headerFields[HTTPField.Name("X-After")!] = "2"
            #expect(request.head.headerFields[fields: .cookie].count == 3)
            #expect(try await transport.send(request).status == .ok)
        }
        let head = try #require(server.requestHeads.first)
        let lines = head.split(separator: "\r\n").map(String.init)
        let cookieLines = lines.filter { $0.lowercased().hasPrefix("cookie:") }
        #expect(cookieLines == ["Cookie: session=abc; csrf_access_token=def; theme=dark"])
        #expect(lines.contains("X-Before: 1") && lines.contains("X-After: 2"))
    }

    @Test func withoutRepeatedCookiesTheFieldsAreTheHeads() throws {
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/")!)
        request.head.headerFields[.cookie] = "only=1"
        request.head.headerFields[.accept] = "*/*"
        #expect(request.headerFieldsForHTTP1 == request.head.headerFields)
    }
}
