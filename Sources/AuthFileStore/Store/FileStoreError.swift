// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// Why a ``FileCredentialStore`` refused to open its directory.
///
/// Thrown only by ``FileCredentialStore/init(directory:options:)``; the operations of an open
/// store throw `CredentialStoreError`. Compare codes: `error.code == .insecurePermissions`.
/// A refusal by `StoreDirectoryPolicy` is carried as ``underlying``.
public struct FileStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal this is.
    public typealias Code = ErrorCode<FileStoreError>

    /// What kind of refusal this is.
    public let code: Code
    /// A readable cause that says what to do.
    public let message: String
    /// The directory concerned.
    public let path: String
    /// The lower-level error, when there is one.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, path: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    /// `FileStoreError.code: message (path) (caused by: …)`.
    public var description: String {
        var text = "FileStoreError.\(code): \(message) (\(path))"
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

extension ErrorCode where Domain == FileStoreError {
    /// The path exists but is not a directory.
    public static var notADirectory: Self { Self("notADirectory") }
    /// Users other than the owner (group or others) can write to the directory.
    public static var insecurePermissions: Self { Self("insecurePermissions") }
    /// The directory belongs to another user.
    public static var foreignOwner: Self { Self("foreignOwner") }
    /// The store directory is a symbolic link where none may be (links in the path the
    /// caller gave are followed; see `StoreDirectoryPolicy`).
    public static var symbolicLink: Self { Self("symbolicLink") }
    /// The URL is not a file URL.
    public static var invalidLocation: Self { Self("invalidLocation") }
    /// The directory or its lock file could not be created or inspected.
    public static var io: Self { Self("io") }
}
