// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The rules a store on the local file system applies to its directory and to every entry in
/// it; for store implementers (the file store and the SQLite store both follow them).
///
/// - **The directory.** The caller's path to it may pass through symbolic links: the caller chose
///   that path, and it is resolved once, when the store opens. What it resolves to must be a
///   directory owned by the effective user that neither its group nor others can write to.
///   The sticky bit does not make a shared directory such as `/tmp` (mode `1777`) acceptable: it
///   stops others from removing or renaming the store's files, not from planting a file or a link
///   under a name the store is about to use. Missing directories are created with mode 0700; an
///   existing directory's mode is never changed.
/// - **Inside it.** Nothing is followed. An entry the store uses (a record, a subdirectory, a lock
///   file, a database and its `-wal`, `-shm` and `-journal` files) that is a symbolic link is
///   refused: never read, written, locked or deleted through, and left where it is. A file store
///   reaches every entry relative to an open directory descriptor with `O_NOFOLLOW`; a store
///   whose files are opened by a library (SQLite) checks each entry with ``checkEntry(atPath:)``.
///
/// POSIX only. The checks block; call them where blocking is expected (a store's own queue).
///
/// ```swift
/// let directory = try StoreDirectoryPolicy.prepareDirectory(atPath: "/home/me/.config/app")
/// let exists = try StoreDirectoryPolicy.checkEntry(atPath: directory + "/credentials.db")
/// ```
public enum StoreDirectoryPolicy {
    /// Creates the directory at `path` (and any missing parent, mode 0700) unless it exists, and
    /// checks it against the policy.
    /// - Parameter path: The store's directory as the caller gave it; links in it are followed.
    /// - Returns: The real path of the directory, with every symbolic link resolved.
    /// - Throws: ``Refusal``, naming `path`: `.notADirectory`, `.foreignOwner`,
    ///   `.insecurePermissions`, or `.io` when the directory cannot be created or inspected.
    public static func prepareDirectory(atPath path: String) throws(Refusal) -> String {
        try createMissing(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system("cannot inspect the store directory", path: path) }
        try check(info, path: path)
        guard let resolved = realpath(path, nil) else { throw .system("cannot resolve the store directory", path: path) }
        defer { free(resolved) }
        let result = String(cString: resolved)
        // The path that was checked must still lead to the directory that was checked.
        var again = stat()
        guard lstat(result, &again) == 0, again.st_dev == info.st_dev, again.st_ino == info.st_ino else {
            throw Refusal(code: .io, message: "the store directory was replaced while it was being opened; try again", path: path)
        }
        return result
    }

    /// Checks an open directory against the policy, on the descriptor itself, so that nothing can
    /// swap the directory between the check and its use.
    /// - Parameters:
    ///   - descriptor: The open directory.
    ///   - path: Its path, for messages.
    /// - Throws: ``Refusal``: `.notADirectory`, `.foreignOwner`, `.insecurePermissions` or `.io`.
    public static func checkDirectory(descriptor: Int32, path: String) throws(Refusal) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the store directory", path: path) }
        try check(info, path: path)
    }

    /// Checks an entry inside the store's directory without following it: it must be absent, or
    /// a regular file owned by the effective user.
    /// - Parameter path: The entry; links in the directory part are followed, a link at the entry
    ///   itself is refused.
    /// - Returns: Whether the entry exists.
    /// - Throws: ``Refusal``: `.symbolicLink`, `.notARegularFile`, `.foreignOwner`, or `.io`.
    public static func checkEntry(atPath path: String) throws(Refusal) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw .system("cannot inspect a file of the store", path: path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: throw .symbolicLink(at: path)
        case S_IFREG: break
        default: throw .notARegularFile(at: path)
        }
        guard info.st_uid == geteuid() else {
            throw Refusal(
                code: .foreignOwner,
                message: "\(path) belongs to user id \(info.st_uid), not to this user (\(geteuid())); the store only uses its own files",
                path: path)
        }
        return true
    }

    private static func check(_ info: stat, path: String) throws(Refusal) {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(code: .notADirectory, message: "the store location exists and is not a directory", path: path)
        }
        guard info.st_uid == geteuid() else {
            throw Refusal(
                code: .foreignOwner,
                message: "the store directory belongs to user id \(info.st_uid), not to this user (\(geteuid())); use a directory of your own",
                path: path)
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o022 == 0 else {
            let sticky = mode & 0o1000 != 0 ? " (the sticky bit does not stop them from planting files)" : ""
            throw Refusal(
                code: .insecurePermissions,
                message: "the store directory has mode \(String(mode, radix: 8)), so other users can write to it\(sticky); run `chmod 700` on it or choose another directory",
                path: path)
        }
    }

    /// Creates `path` and any missing parent with mode 0700 (set exactly, whatever the umask).
    private static func createMissing(_ path: String) throws(Refusal) {
        var missing: [String] = []
        var current = path
        var info = stat()
        while !current.isEmpty, current != "/", stat(current, &info) != 0 {
            guard errno == ENOENT else { break }  // reported by the caller's own stat
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            if mkdir(directory, 0o700) != 0 {
                if errno == EEXIST { continue }  // made meanwhile by another process
                throw .system("cannot create the store directory", path: directory)
            }
            guard chmod(directory, 0o700) == 0 else { throw .system("cannot set the mode of the store directory", path: directory) }
        }
    }
}

extension StoreDirectoryPolicy {
    /// Why a store refused its directory or an entry in it. Its text names the path and what to
    /// do; it never holds record contents.
    ///
    /// Stores carry it as the `underlying` error of their own error type; compare codes:
    /// `refusal.code == .symbolicLink`.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// What kind of refusal this is.
        public typealias Code = ErrorCode<StoreDirectoryPolicy.Refusal>

        /// What kind of refusal this is.
        public let code: Code
        /// A readable cause that says what to do.
        public let message: String
        /// The directory or entry concerned.
        public let path: String
        /// The `errno` of a failed system call (code `.io`), when there is one.
        public let systemErrorCode: Int32?

        /// Creates a refusal.
        public init(code: Code, message: String, path: String, systemErrorCode: Int32? = nil) {
            self.code = code
            self.message = message
            self.path = path
            self.systemErrorCode = systemErrorCode
        }

        /// `StoreDirectoryPolicy.Refusal.code: message (path)`.
        public var description: String {
            "StoreDirectoryPolicy.Refusal.\(code): \(message) (\(path))"
        }

        /// An entry inside the store is a symbolic link: `<path> is a symbolic link; …`.
        public static func symbolicLink(at path: String) -> Refusal {
            Refusal(
                code: .symbolicLink,
                message: "\(path) is a symbolic link; the store never follows links inside its directory (the link was left in place: remove it)",
                path: path)
        }

        /// A directory of the store is something else.
        public static func notADirectory(at path: String) -> Refusal {
            Refusal(code: .notADirectory, message: "\(path) is not a directory; the store left it in place", path: path)
        }

        /// A file the store uses is not a regular file.
        public static func notARegularFile(at path: String) -> Refusal {
            Refusal(code: .notARegularFile, message: "\(path) is not a regular file; the store left it in place", path: path)
        }

        /// A failed system call, with the current `errno`.
        static func system(_ message: String, path: String) -> Refusal {
            let code = errno
            return Refusal(
                code: .io, message: "\(message): \(String(cString: strerror(code))) (errno \(code))",
                path: path, systemErrorCode: code)
        }
    }
}

extension ErrorCode where Domain == StoreDirectoryPolicy.Refusal {
    /// The entry is a symbolic link, which the store never follows.
    public static var symbolicLink: Self { Self("symbolicLink") }
    /// The store's directory, or a directory in it, is something else.
    public static var notADirectory: Self { Self("notADirectory") }
    /// A file the store uses is a directory, a FIFO, a socket or a device.
    public static var notARegularFile: Self { Self("notARegularFile") }
    /// Users other than the owner (group or others) can write to the store's directory.
    public static var insecurePermissions: Self { Self("insecurePermissions") }
    /// The directory or file belongs to another user.
    public static var foreignOwner: Self { Self("foreignOwner") }
    /// A system call failed, so the entry could not be created or checked.
    public static var io: Self { Self("io") }
}
