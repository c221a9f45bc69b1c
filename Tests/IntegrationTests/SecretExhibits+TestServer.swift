// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Crypto
import Foundation

extension SecretExhibit {
    /// AuthTestServer's public types that hold a token, a password hash or a signing key.
    /// (A file of its own: AuthCore and AuthTestServer both name a type `TokenResponse`.)
    static func testServer() -> [SecretExhibit] {
        let m = marker
        let key = keyBytes("jwt")
        return [
            SecretExhibit(TokenResponse(accessToken: "\(m)-access", expiresIn: 60, refreshToken: "\(m)-refresh"), [m], name: "AuthTestServer.TokenResponse"),
            SecretExhibit(UserRecord(id: "u1", username: "alice", passwordHash: "$2b$12$\(m)", createdAt: date), [m]),
            SecretExhibit(JWTSigner(key: SymmetricKey(data: key)), [m], raw: [Array(key)]),
        ]
    }
}
