// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// HTTP Basic authentication (RFC 7617): a user name and password.
public struct BasicCredential: Credential {
    /// `basic`.
    public static let kind = "basic"
    /// The user name.
    public var username: String
    /// The password.
    public var password: Secret

    /// Creates a Basic credential.
    public init(username: String, password: String) {
        self.username = username
        self.password = Secret(password)
    }
    /// Basic credentials do not expire.
    public var expiresAt: Date? { nil }
    /// Sets `Authorization: Basic base64(user:password)`.
    public func authorize(_ request: inout AuthRequest) {
        let token = Data("\(username):\(password.reveal)".utf8).base64EncodedString()
        request.head.headerFields[.authorization] = "Basic \(token)"
    }
    /// The user name; never the password.
    public var description: String { "BasicCredential(username: \(username), password: <redacted>)" }
}
