// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import Foundation
import HTTPTypes
import Testing

@Suite struct DescriptionTests {
    @Test func noPublicTypeShowsASecret() throws {
        let secret = "S3CR3T-VALUE"
        let values: [Any] = [
            Secret(secret),
            BearerTokenSet(accessToken: secret, refreshToken: secret, expiresAt: nil, idToken: secret),
            APIKeyHeaderCredential(key: secret), APIKeyQueryCredential(key: secret),
            BasicCredential(username: "u", password: secret),
            GuestToken(token: secret, expiresAt: nil, deviceID: "d"),
            Envelope(kind: "bearer", payload: Data(secret.utf8), updatedAt: Date()),
            try AESGCMCipher(key: Data(repeating: 7, count: 32)),
            OAuth2RefreshTokenRefresher.ClientAuthentication.clientSecretBasic(secret: Secret(secret)),
            AuthError.reauthenticationRequired(alice, reason: "invalid_grant"),
        ]
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            #expect(!dumped.contains(secret), "dump of \(type(of: value))")
            #expect(!String(describing: value).contains(secret), "description of \(type(of: value))")
            #expect(!String(reflecting: value).contains(secret), "debugDescription of \(type(of: value))")
        }
    }

    @Test func secretEncodesAsPlainString() throws {
        let data = try JSONEncoder().encode(["k": Secret("v")])
        #expect(String(decoding: data, as: UTF8.self) == #"{"k":"v"}"#)
        #expect(try JSONDecoder().decode([String: Secret].self, from: data)["k"]?.reveal == "v")
    }
}
