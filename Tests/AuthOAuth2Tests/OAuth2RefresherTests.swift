// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite struct OAuth2RefresherTests {
    let endpoint = URL(string: "https://auth.example.com/oauth/token")!

    final class TokenEndpoint: Sendable {
        let requests = Mutex<[AuthRequest]>([])
        let answer: AuthResponse
        init(_ status: HTTPResponse.Status, _ json: String) { answer = AuthResponse(status: status, body: Data(json.utf8)) }
        var transport: ClosureTransport {
            ClosureTransport { request in self.requests.withLock { $0.append(request) }; return self.answer }
        }
        var last: AuthRequest? { requests.withLock { $0.last } }
        var form: [String: String] {
            guard let body = last?.body else { return [:] }
            var fields: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
                fields[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return fields
        }
    }

    let old = BearerTokenSet(accessToken: "a0", refreshToken: "r0 +&=", expiresAt: nil)

    @Test func postsTheRefreshGrantFormEncodedAndKeepsTheOldRefreshToken() async throws {
        let server = TokenEndpoint(.ok, #"{"access_token":"a1","token_type":"bearer","expires_in":3600,"scope":"read"}"#)
        let clock = ManualClock()
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "cli ent", transport: server.transport, clock: clock)
        let renewed = try await refresher.refresh(old)
        #expect(server.last?.head.method == .post)
        #expect(server.last?.head.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(server.form == ["grant_type": "refresh_token", "refresh_token": "r0 +&=", "client_id": "cli ent"])
        #expect(renewed.accessToken.reveal == "a1")
        #expect(renewed.refreshToken?.reveal == "r0 +&=")
        #expect(renewed.expiresAt == clock.now().addingTimeInterval(3600))
        #expect(renewed.scope == "read")
    }

    @Test func expiryIsCountedFromTheServersDateHeader() async throws {
        let serverDate = Date(timeIntervalSince1970: 1_900_000_000)
        let transport = ClosureTransport { _ in
            AuthResponse(status: .ok, headerFields: [.date: HTTPDate.format(serverDate)], body: Data(#"{"access_token":"a1","expires_in":300}"#.utf8))
        }
        let renewed = try await OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "c", transport: transport, clock: ManualClock()).refresh(old)
        #expect(renewed.expiresAt == serverDate.addingTimeInterval(300))
    }

    @Test func rotatedRefreshTokenReplacesTheOldOne() async throws {
        let server = TokenEndpoint(.ok, #"{"access_token":"a1","refresh_token":"r1","expires_in":"60"}"#)
        let renewed = try await OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "c", transport: server.transport).refresh(old)
        #expect(renewed.refreshToken?.reveal == "r1")
        #expect(renewed.expiresAt != nil)
    }

    @Test func clientSecretBasicAndPost() async throws {
        let server = TokenEndpoint(.ok, #"{"access_token":"a1"}"#)
        _ = try await OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "id:1", authentication: .clientSecretBasic(secret: Secret("s3 cret")), transport: server.transport).refresh(old)
        let expected = "Basic " + Data("id%3A1:s3%20cret".utf8).base64EncodedString()  // a space as %20 (issue 51)
        #expect(server.last?.head.headerFields[.authorization] == expected)
        #expect(server.form["client_secret"] == nil)
        _ = try await OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "id", authentication: .clientSecretPost(secret: Secret("sec")), transport: server.transport).refresh(old)
        #expect(server.form["client_id"] == "id")
        #expect(server.form["client_secret"] == "sec")
        #expect(server.last?.head.headerFields[.authorization] == nil)
    }

    @Test func invalidGrantMeansReauthentication() async throws {
        let server = TokenEndpoint(.badRequest, #"{"error":"invalid_grant","error_description":"token reused"}"#)
        await #expect { try await OAuth2RefreshTokenRefresher(tokenEndpoint: endpoint, clientID: "c", transport: server.transport).refresh(old) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .reauthenticationRequired && (error.underlying as? OAuth2Error)?.code == "invalid_grant"
        }
    }

    @Test func otherOAuthErrorsAreRenewalFailures() async throws {
        let server = TokenEndpoint(.serviceUnavailable, #"{"error":"temporarily_unavailable","error_uri":"https://docs"}"#)
        await #expect { try await OAuth2RefresherTests.refresh(server, self) } throws: { error in
            guard let error = error as? AuthError, let oauth = error.underlying as? OAuth2Error else { return false }
            return error.code == .renewalFailed && oauth.code == "temporarily_unavailable" && oauth.status == 503 && oauth.errorURI == "https://docs"
        }
    }

    /// Issue 18 item 4: a rejected client is a configuration error, not a failure that may pass.
    @Test(arguments: ["invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope"])
    func clientErrorsAreMisconfiguration(code: String) async throws {
        let server = TokenEndpoint(.unauthorized, #"{"error":"\#(code)"}"#)
        await #expect { try await OAuth2RefresherTests.refresh(server, self) } throws: { error in
            guard let error = error as? AuthError, let oauth = error.underlying as? OAuth2Error else { return false }
            return error.code == .misconfigured && oauth.code == code && error.message.contains(code)
        }
    }

    @Test(arguments: ["{not json", #"{"token_type":"bearer"}"#, #"{"access_token":5}"#, ""])
    func malformedSuccessBodiesAreDecodingErrors(body: String) async throws {
        let server = TokenEndpoint(.ok, body)
        await #expect { try await OAuth2RefresherTests.refresh(server, self) } throws: { ($0 as? AuthError)?.code == .decoding }
    }

    @Test func serverErrorWithoutJSONIsARenewalFailure() async throws {
        let server = TokenEndpoint(.badGateway, "<html>oops</html>")
        await #expect { try await OAuth2RefresherTests.refresh(server, self) } throws: { ($0 as? AuthError)?.code == .renewalFailed }
    }

    static func refresh(_ server: TokenEndpoint, _ test: OAuth2RefresherTests) async throws -> BearerTokenSet {
        try await OAuth2RefreshTokenRefresher(tokenEndpoint: test.endpoint, clientID: "c", transport: server.transport).refresh(test.old)
    }
}
