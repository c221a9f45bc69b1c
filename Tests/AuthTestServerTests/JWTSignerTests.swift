// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Crypto
import Foundation
import Testing

@Suite struct JWTSignerTests {
    /// RFC 7519 §3.1 example token and the RFC 7515 A.1 HS256 key (Tests/Vectors/README.md).
    static let rfcToken = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let rfcKey = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"

    static func base64URLDecode(_ text: String) throws -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { throw TestFailure("bad base64url") }
        return data
    }

    @Test func verifiesTheRFC7519ExampleSignature() throws {
        let signer = JWTSigner(key: SymmetricKey(data: try Self.base64URLDecode(Self.rfcKey)))
        let payload = try signer.verifiedPayload(of: Self.rfcToken)
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(claims["iss"] as? String == "joe")
        #expect(claims["exp"] as? Int == 1_300_819_380)
        #expect(claims["http://example.com/is_root"] as? Bool == true)
    }

    @Test func rejectsTheExampleUnderAnotherKey() {
        let signer = JWTSigner.random()
        #expect(throws: AuthTestServerError(.badSignature, "token signature does not match the server key")) {
            try signer.verifiedPayload(of: Self.rfcToken)
        }
    }

    @Test func roundTripsClaimsAndDetectsTampering() throws {
        let signer = JWTSigner.random()
        let claims = AccessTokenClaims(subject: "user-1", issuedAt: Date(timeIntervalSince1970: 1_000), lifetime: 300, family: "fam-1")
        let token = try signer.sign(claims)
        #expect(try signer.verify(token) == claims)

        var parts = token.split(separator: ".").map(String.init)
        let forged = AccessTokenClaims(subject: "admin", issuedAt: Date(timeIntervalSince1970: 1_000), lifetime: 300, family: "fam-1")
        let forgedToken = try JWTSigner.random().sign(forged)
        parts[1] = String(forgedToken.split(separator: ".")[1])
        do throws(AuthTestServerError) {
            _ = try signer.verify(parts.joined(separator: "."))
            Issue.record("tampered token verified")
        } catch {
            #expect(error.code == .badSignature)
        }
    }

    @Test func rejectsMalformedAndUnsignedTokens() {
        let signer = JWTSigner.random()
        for token in ["", "a.b", "a.b.c.d", "!!!.@@@.###"] {
            #expect(throws: AuthTestServerError.self) { try signer.verify(token) }
        }
        let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
        do throws(AuthTestServerError) {
            _ = try signer.verify(header + ".e30.")
            Issue.record("alg none verified")
        } catch {
            #expect(error.code == .unsupportedAlgorithm || error.code == .malformedToken)
        }
    }

    @Test func descriptionsHideSecrets() throws {
        let signer = JWTSigner.random()
        let response = TokenResponse(accessToken: "secret-access", expiresIn: 300, refreshToken: "secret-refresh")
        var dumped = ""
        dump(response, to: &dumped)
        for text in [response.description, String(reflecting: response), dumped] {
            #expect(!text.contains("secret-access"))
            #expect(!text.contains("secret-refresh"))
        }
        #expect(signer.description == "JWTSigner(HS256)")
        let user = UserRecord(id: "u", username: "alice", passwordHash: "$2b$04$hash", createdAt: Date())
        var dumpedUser = ""
        dump(user, to: &dumpedUser)
        #expect(!dumpedUser.contains("$2b$04$hash"))
        #expect(!user.description.contains("$2b$04$hash"))
    }
}
