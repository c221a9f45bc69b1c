// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A credential that was not put on a request because the request's origin is not among those
/// its configuration allows (see ``CredentialScope``).
public struct CredentialWithheld: Sendable, Equatable, CustomStringConvertible {
    /// The account the credential belongs to, when one does.
    public var account: AccountKey?
    /// The origin the request went to (`scheme://host:port`), or a note that it could not be read.
    public var origin: String
    /// What was held back, named without its value ("SigV4 signature", "header x-service-token").
    public var credential: String

    /// Creates the record.
    public init(account: AccountKey?, origin: String, credential: String) {
        self.account = account
        self.origin = origin
        self.credential = credential
    }

    /// A one-line summary; it never holds a secret.
    public var description: String { "\(credential) withheld from \(origin)" }
}
