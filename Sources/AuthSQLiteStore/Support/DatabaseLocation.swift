// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// Where the database lives, checked against `StoreDirectoryPolicy` before SQLite opens anything.
///
/// The folder must belong to this user and be writable by no one else (the file store's rule);
/// links in the caller's path to the folder are followed, and SQLite is then given the folder's
/// real path, so no link is left in the path it opens. The database file and its `-wal`, `-shm`
/// and `-journal` files must each be absent or a regular file of this user: a link there,
/// dangling or not, is refused and left in place.
enum DatabaseLocation {
    /// The files SQLite keeps beside a database, which it opens itself (with `O_NOFOLLOW`).
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Checks the folder (creating it, mode 0700, when missing) and the files of the database at
    /// `path`.
    /// - Returns: The path to give SQLite: the folder's real path and the file's name.
    /// - Throws: `CredentialStoreError` naming the path at fault: `.invalidArgument` for a refusal
    ///   of the policy (a link, an unsafe or foreign folder, a file of another user, a directory
    ///   where the file belongs), `.io` when a check cannot be made.
    static func resolve(_ path: String) throws(CredentialStoreError) -> String {
        let name = (path as NSString).lastPathComponent
        guard !name.isEmpty, name != "/", name != ".", name != "..", !path.hasSuffix("/") else {
            throw CredentialStoreError(code: .invalidArgument, message: "the database path must name a file", path: path)
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = try check { () throws(StoreDirectoryPolicy.Refusal) in
            try StoreDirectoryPolicy.prepareDirectory(atPath: parent.isEmpty ? "." : parent)
        }
        try checkFiles(path)
        return (folder == "/" ? "" : folder) + "/" + name
    }

    /// Checks the database file and its side files again (after the file was created, and right
    /// before SQLite opens it).
    static func checkFiles(_ path: String) throws(CredentialStoreError) {
        for suffix in [""] + sideFileSuffixes {
            _ = try check { () throws(StoreDirectoryPolicy.Refusal) in try StoreDirectoryPolicy.checkEntry(atPath: path + suffix) }
        }
    }

    /// The store error for a refusal, which it carries as `underlying`.
    static func error(_ refusal: StoreDirectoryPolicy.Refusal) -> CredentialStoreError {
        CredentialStoreError(
            code: refusal.code == .io ? .io : .invalidArgument,
            message: refusal.message, path: refusal.path, underlying: refusal)
    }

    private static func check<T>(_ body: () throws(StoreDirectoryPolicy.Refusal) -> T) throws(CredentialStoreError) -> T {
        do {
            return try body()
        } catch {
            throw Self.error(error)
        }
    }
}
