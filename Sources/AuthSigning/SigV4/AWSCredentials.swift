// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// AWS credentials for SigV4: access key id, secret access key and an optional session token.
///
/// Its `description`, `debugDescription` and `dump` show the access key id only; the secret and
/// the session token are never printed.
///
/// ```swift
/// let credentials = AWSCredentials(accessKeyID: "AKID…", secretAccessKey: secretAccessKey, sessionToken: sessionToken)
/// print(credentials)   // AWSCredentials(accessKeyID: AKID…, secretAccessKey: <redacted>, sessionToken: <redacted>)
/// ```
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key id (not secret; it is sent in every signature).
    public let accessKeyID: String
    /// The secret access key.
    public let secretAccessKey: String
    /// The session token of temporary (STS) credentials.
    public let sessionToken: String?

    /// Creates credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The access key id, with the secrets redacted.
    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>, sessionToken: \(sessionToken == nil ? "nil" : "<redacted>"))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// Shows the access key id only, so `dump` never prints a secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secrets": "<redacted>"], displayStyle: .struct)
    }
}
