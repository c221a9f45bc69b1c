// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Testing
@testable import AuthCookie

/// Which refusals a cookie session takes for a CSRF problem that no renewal fixes (issue 17).
@Suite struct CSRFRefusalTests {
    static let url = URL(string: "https://app.example.com/api/notes")!
    static let strategy = CookieSessionStrategy(
        allowedHosts: AllowedHosts(["app.example.com"]), jar: CookieJar(),
        login: .init(url: URL(string: "https://app.example.com/login")!), csrf: nil,
        transport: ClosureTransport { _ in AuthResponse(status: .ok) })

    static func refusal(_ status: HTTPResponse.Status, _ body: String, contentType: String? = nil, challenge: String? = nil) -> AuthError? {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        if let challenge { fields[.wwwAuthenticate] = challenge }
        let request = AuthRequest(head: HTTPRequest(method: .post, scheme: "https", authority: "app.example.com", path: "/api/notes"))
        return strategy.nonRenewableFailure(AuthResponse(status: status, headerFields: fields, body: Data(body.utf8)), for: request)
    }

    @Test func aStatedCSRFErrorIsNotRenewed() {
        #expect(Self.refusal(.unauthorized, #"{"msg":"Missing CSRF token"}"#, contentType: "application/json")?.code == .csrfRejected)
        #expect(Self.refusal(.unauthorized, #" {"msg":"CSRF double submit tokens do not match"}"#)?.code == .csrfRejected)
        #expect(Self.refusal(.forbidden, "", challenge: #"CSRF realm="app""#)?.code == .csrfRejected)
    }

    /// A login page that answers an ended session holds a CSRF field: that session renews.
    @Test func aLoginPageWithACSRFFieldIsAnEndedSession() {
        let page = #"<html><form><input type="hidden" name="csrfmiddlewaretoken" value="x"></form></html>"#
        #expect(Self.refusal(.unauthorized, page, contentType: "text/html") == nil)
        #expect(Self.refusal(.unauthorized, #"{"msg":"Token has expired"}"#, contentType: "application/json") == nil)
    }
}
