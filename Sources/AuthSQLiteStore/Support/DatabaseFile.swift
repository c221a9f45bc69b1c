// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// File-level care around the database: inspect an existing file without changing it, create a
/// new one private to its owner, keep the WAL side files private too; never through a link.
enum DatabaseFile {
    /// What is at the database path before SQLite opens it.
    enum State: Equatable {
        /// Nothing: the store creates a new database.
        case absent
        /// An empty file: SQLite initialises it as a new database.
        case empty
        /// A file that starts with the SQLite header; validated read-only before use.
        case database
    }

    /// The 16 bytes every SQLite 3 database starts with.
    static let sqliteHeader: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// The file's state, read without writing anything and without following a link.
    /// - Parameters:
    ///   - file: The path SQLite will open (see `DatabaseLocation`).
    ///   - path: The path the caller gave, for errors.
    /// - Throws: `.corrupted` naming the path when the file is not an SQLite database;
    ///   `.io` when it cannot be read.
    static func inspect(_ file: String, path: String) throws -> State {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return .absent }
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be read (errno \(code))", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be inspected (errno \(errno))", path: path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DatabaseLocation.error(.notARegularFile(at: path))
        }
        var prefix = [UInt8](repeating: 0, count: sqliteHeader.count)
        var count = 0
        while count < prefix.count {
            let got = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw CredentialStoreError(code: .io, message: "the credential database file cannot be read (errno \(errno))", path: path)
            }
            if got == 0 { break }
            count += got
        }
        if count == 0 { return .empty }
        guard Array(prefix[0..<count]) == sqliteHeader else {
            throw CredentialStoreError.corrupted(
                "the file is not an SQLite database (it lacks the SQLite header); it was left untouched, move it away or restore it",
                path: path)
        }
        return .database
    }

    /// Creates an empty database file with mode 0600, unless one exists already; its folder was
    /// made by `DatabaseLocation`.
    ///
    /// SQLite gives the `-wal` and `-shm` files it creates later the mode of the database file, so
    /// they are private too. `O_EXCL` makes this safe against another process creating the file at
    /// the same moment (the loser simply opens the winner's file), and never follows a link.
    static func createPrivate(_ file: String, path: String) throws {
        let descriptor = open(file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0 {
            let code = errno
            if code == EEXIST { return }
            throw CredentialStoreError(code: .io, message: "the credential database file cannot be created (errno \(code))", path: path)
        }
        // The umask may have removed bits from 0600; set the mode exactly.
        _ = fchmod(descriptor, 0o600)
        _ = close(descriptor)
    }

    /// Sets mode 0600 on the database file and on its `-wal` and `-shm` files where they exist.
    ///
    /// By path, after `lstat` shows the file is no link: SQLite has these files open with its
    /// POSIX locks on them, and closing any other descriptor of them in this process would
    /// silently release those locks (a WAL index shared without locks is how a `SIGBUS` happens).
    static func restrictPermissions(_ file: String, path: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            guard lstat(file + suffix, &info) == 0 else {
                if errno == ENOENT { continue }
                throw CredentialStoreError(code: .io, message: "cannot make the credential database private (errno \(errno))", path: path + suffix)
            }
            guard info.st_mode & S_IFMT != S_IFLNK else { throw DatabaseLocation.error(.symbolicLink(at: path + suffix)) }
            if info.st_mode & 0o777 == 0o600 { continue }
            guard chmod(file + suffix, 0o600) == 0 else {
                throw CredentialStoreError(code: .io, message: "cannot make the credential database private (mode 0600, errno \(errno))", path: path + suffix)
            }
        }
    }
}
