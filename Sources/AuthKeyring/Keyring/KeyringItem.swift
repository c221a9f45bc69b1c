// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Names one secret in a keyring: a service and an account within it.
///
/// The same pair names a generic password in the Apple Keychain (`kSecAttrService`,
/// `kSecAttrAccount`) and an item of the Secret Service (attributes `service` and `account`,
/// with `xdg:schema` set to ``schema``, so that items of other applications never match).
public struct KeyringItem: Hashable, Sendable, CustomStringConvertible {
    /// The Secret Service schema name of AuthKit's items.
    public static let schema = "dev.authkit.Secret"

    /// The application or service the secret belongs to, such as `com.example.mytool`.
    public let service: String
    /// The secret's name within the service, such as `vault-key` or a user name.
    public let account: String

    /// Names a secret.
    /// - Parameters:
    ///   - service: The application or service the secret belongs to.
    ///   - account: The secret's name within the service.
    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    /// `service/account`: names only, never a secret.
    public var description: String { "\(service)/\(account)" }

    /// The Secret Service attributes that identify the item.
    var attributes: [String: String] {
        ["xdg:schema": Self.schema, "service": service, "account": account]
    }
}
