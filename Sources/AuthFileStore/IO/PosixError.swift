// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which one, on which file, and `errno`.
///
/// Carried as the `underlying` error of a `CredentialStoreError`; it names paths (which hold only
/// hex-encoded or hashed key components) and never record contents.
struct PosixError: Error, Sendable, CustomStringConvertible {
    /// The C call that failed, such as `open` or `rename`.
    let operation: String
    /// The file concerned.
    let path: String
    /// The `errno` value.
    let code: Int32

    /// Whether the call failed because nothing may be written here (a read-only file system, or
    /// no write permission).
    var deniesWriting: Bool { code == EROFS || code == EACCES || code == EPERM }

    /// `open(/path): No such file or directory (errno 2)`.
    var description: String {
        "\(operation)(\(path)): \(String(cString: strerror(code))) (errno \(code))"
    }

    /// The error for the current `errno`.
    static func current(_ operation: String, _ path: String) -> PosixError {
        PosixError(operation: operation, path: path, code: errno)
    }
}
