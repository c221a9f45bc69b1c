// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The errors a ``CredentialStore`` throws.
///
/// Codes tell apart what callers must treat differently. Two may pass by themselves, and a caller
/// may retry them later; neither ever means "signed out":
/// - `.unavailable`: locked, busy, unreachable (connection refused or lost, a timeout, a server
///   shutting down);
/// - `.readOnly`: the store answers reads but refuses writes for now (a hot standby, a failover
///   in progress, a store opened read-only).
///
/// The others will not pass by retrying; they need a person or newer code:
/// - `.misconfigured`: the store refuses this client (authentication failed, a missing privilege,
///   a database or table that does not exist);
/// - `.invalidArgument`: a key or option this store cannot take (a name over its limit);
/// - `.corrupted`: a record that cannot be read (reported, never silently dropped);
/// - `.incompatibleVersion`: written by newer code (see AuthMigration);
/// - `.cipher`, `.io`: the record could not be sealed or opened, another input/output failure.
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of store failure this is.
    public typealias Code = ErrorCode<CredentialStoreError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The record concerned, when there is one.
    public let key: CredentialKey?
    /// The file concerned, when there is one.
    public let path: String?
    /// The lower-level error.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, key: CredentialKey? = nil, path: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.key = key
        self.path = path
        self.underlying = underlying
    }

    /// `CredentialStoreError.code: message [key] (path) (caused by: …)`.
    public var description: String {
        var text = "CredentialStoreError.\(code): \(message)"
        if let key { text += " [\(key)]" }
        if let path { text += " (\(path))" }
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

extension CredentialStoreError {
    /// The store is locked or busy.
    public static func unavailable(_ message: String, path: String? = nil, underlying: (any Error)? = nil) -> Self {
        Self(code: .unavailable, message: message, path: path, underlying: underlying)
    }
    /// The store answers reads but refuses writes for now (a hot standby, a failover in
    /// progress); this may pass.
    public static func readOnly(_ message: String, key: CredentialKey? = nil, path: String? = nil, underlying: (any Error)? = nil) -> Self {
        Self(code: .readOnly, message: message, key: key, path: path, underlying: underlying)
    }
    /// The store refuses this client in a way retrying will not mend (authentication failed, a
    /// missing privilege, a missing database or table).
    public static func misconfigured(_ message: String, path: String? = nil, underlying: (any Error)? = nil) -> Self {
        Self(code: .misconfigured, message: message, path: path, underlying: underlying)
    }
    /// A key or option this store cannot take; `message` says which and why, never the value.
    public static func invalidArgument(_ message: String, path: String? = nil) -> Self {
        Self(code: .invalidArgument, message: message, path: path)
    }
    /// A record cannot be read.
    public static func corrupted(_ message: String, key: CredentialKey? = nil, path: String? = nil, underlying: (any Error)? = nil) -> Self {
        Self(code: .corrupted, message: message, key: key, path: path, underlying: underlying)
    }
    /// A record or schema is newer than this code.
    public static func incompatibleVersion(found: Int, supported: Int, key: CredentialKey? = nil, path: String? = nil) -> Self {
        Self(code: .incompatibleVersion, message: "format version \(found) is newer than the supported version \(supported); upgrade AuthKit", key: key, path: path)
    }
}

extension ErrorCode where Domain == CredentialStoreError {
    /// Locked, busy or otherwise unreachable for now; the records are not known to be gone.
    public static var unavailable: Self { Self("unavailable") }
    /// Reads are answered but writes are refused for now: a hot standby, a failover in progress, a
    /// store opened read-only. It may pass; the records are not known to be gone.
    public static var readOnly: Self { Self("readOnly") }
    /// The store refuses this client in a way that retrying will not mend: authentication failed,
    /// a missing privilege, a database, schema or table that does not exist.
    public static var misconfigured: Self { Self("misconfigured") }
    /// A record or the store itself cannot be read or decoded.
    public static var corrupted: Self { Self("corrupted") }
    /// A record or schema was written by a newer version than this code understands.
    public static var incompatibleVersion: Self { Self("incompatibleVersion") }
    /// A key or option is not acceptable to this store.
    public static var invalidArgument: Self { Self("invalidArgument") }
    /// The record could not be sealed or opened with the configured cipher.
    public static var cipher: Self { Self("cipher") }
    /// Another input/output failure.
    public static var io: Self { Self("io") }
}
