// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreDirectory {
    /// The whole contents of the regular file `name`, or nil when it does not exist.
    /// - Throws: a refusal when it is a link or not a regular file (a FIFO is never waited on).
    func readFile(_ name: String, limit: Int) throws(FileIOError) -> [UInt8]? {
        let fd = openat(descriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", name, expectingDirectory: false)
        }
        defer { close(fd) }
        try requireRegularFile(fd, name)
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(.current("read", path + "/" + name))
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { return bytes }  // the caller sees it is too large
        }
    }

    /// Writes `bytes` to the file `name` atomically: a temporary file (mode 0600) beside it,
    /// `fsync`, `rename` over the target, `fsync` of this directory.
    /// - Throws: a refusal when `name` is a link (which is left in place).
    func writeAtomically(_ bytes: [UInt8], to name: String) throws(FileIOError) {
        try requireNoLink(name)
        let temporary = PosixFiles.temporaryPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let temporaryPath = path + "/" + temporary
        let fd = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system(.current("open", temporaryPath)) }
        do throws(FileIOError) {
            guard fchmod(fd, 0o600) == 0 else { throw .system(.current("fchmod", temporaryPath)) }
            try Self.writeAll(fd, bytes, path: temporaryPath)
            guard fsync(fd) == 0 else { throw .system(.current("fsync", temporaryPath)) }
        } catch {
            close(fd)
            _ = unlinkat(descriptor, temporary, 0)
            throw error
        }
        guard close(fd) == 0 else {
            let failure = PosixError.current("close", temporaryPath)
            _ = unlinkat(descriptor, temporary, 0)
            throw .system(failure)
        }
        // `renameat` replaces the entry `name` itself; it never follows a link there.
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let failure = PosixError.current("rename", path + "/" + name)
            _ = unlinkat(descriptor, temporary, 0)
            throw .system(failure)
        }
        try sync()
    }

    /// Removes the file `name`. - Returns: false when there was none.
    /// - Throws: a refusal when it is a link (which is left in place).
    @discardableResult
    func removeFile(_ name: String) throws(FileIOError) -> Bool {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return false }
            throw .system(.current("stat", path + "/" + name))
        }
        if info.st_mode & S_IFMT == S_IFLNK { throw .refused(.symbolicLink(at: path + "/" + name)) }
        if unlinkat(descriptor, name, 0) == 0 { return true }
        if errno == ENOENT { return false }
        throw .system(.current("unlink", path + "/" + name))
    }

    /// Renames the entry `source` to `destination` within this directory.
    func move(_ source: String, to destination: String) throws(FileIOError) {
        guard renameat(descriptor, source, descriptor, destination) == 0 else { throw .system(.current("rename", path + "/" + source)) }
    }

    /// Whether an entry `name` exists (a link counts, and is not followed).
    func exists(_ name: String) throws(FileIOError) -> Bool {
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return true }
        if errno == ENOENT { return false }
        throw .system(.current("stat", path + "/" + name))
    }

    /// Opens (creating with mode 0600) the lock file `name` and returns its descriptor.
    /// - Throws: a refusal when it is a link (dangling or not: nothing is created through it).
    func openLockFile(_ name: String) throws(FileIOError) -> Int32 {
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw failure("open", name, expectingDirectory: false) }
        do throws(FileIOError) {
            try requireRegularFile(fd, name)
            guard fchmod(fd, 0o600) == 0 else { throw .system(.current("fchmod", path + "/" + name)) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// A new read-only descriptor of this directory, for `flock` when no lock file can be created.
    func openForLocking() throws(FileIOError) -> Int32 {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .system(.current("open", path)) }
        return fd
    }

    /// Throws a refusal when the entry `name` is a symbolic link.
    private func requireNoLink(_ name: String) throws(FileIOError) {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFLNK { throw .refused(.symbolicLink(at: path + "/" + name)) }
    }

    private func requireRegularFile(_ fd: Int32, _ name: String) throws(FileIOError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(.current("fstat", path + "/" + name)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .refused(.notARegularFile(at: path + "/" + name)) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileIOError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(.current("write", path))
            }
            offset += count
        }
    }
}
