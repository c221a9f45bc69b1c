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

/// An open directory of the store. Every entry in it is reached relative to its descriptor
/// (`openat`, `mkdirat`, `unlinkat`, `renameat`, `fstatat`) and never through a symbolic link:
/// a link where the store expects a directory or a file is refused with
/// ``StoreDirectoryPolicy/Refusal/symbolicLink(at:)`` and left where it is.
///
/// The root stays open for the store's life, so the store keeps using the directory it checked
/// when it opened. Directories are created with mode 0700, set with `fchmod` whatever the umask.
/// Every call blocks; the store runs them on its own dispatch queue.
final class StoreDirectory: Sendable {
    /// The open directory. Never changes, and is closed once, by `deinit`.
    let descriptor: Int32
    /// Its path, for messages.
    let path: String

    /// One directory entry, as `fstatat` sees it without following links.
    struct Entry: Equatable {
        var name: String
        var isDirectory: Bool
        var isRegularFile: Bool
        var isSymbolicLink: Bool
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the store's root (already resolved by ``StoreDirectoryPolicy/prepareDirectory(atPath:)``)
    /// and checks it again on the open descriptor.
    static func openRoot(_ path: String) throws(FileIOError) -> StoreDirectory {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .system(.current("open", path)) }
        let root = StoreDirectory(descriptor: fd, path: path)
        do {
            try StoreDirectoryPolicy.checkDirectory(descriptor: fd, path: path)
        } catch {
            throw .refused(error)
        }
        return root
    }

    /// The subdirectory `name`, or nil when there is none.
    func subdirectory(_ name: String) throws(FileIOError) -> StoreDirectory? {
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("open", name, expectingDirectory: true)
        }
        return StoreDirectory(descriptor: fd, path: path + "/" + name)
    }

    /// The subdirectory `name`, created with mode 0700 (and this directory synced) if missing.
    func makeSubdirectory(_ name: String) throws(FileIOError) -> StoreDirectory {
        let created = mkdirat(descriptor, name, 0o700) == 0
        guard created || errno == EEXIST else { throw .system(.current("mkdir", path + "/" + name)) }
        guard let directory = try subdirectory(name) else { throw .system(.current("open", path + "/" + name)) }
        if created {
            guard fchmod(directory.descriptor, 0o700) == 0 else { throw .system(.current("fchmod", directory.path)) }
            try sync()
        }
        return directory
    }

    /// Removes the subdirectory `name` if it is empty; does nothing if it is not, or is gone.
    func removeSubdirectoryIfEmpty(_ name: String) throws(FileIOError) {
        if unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOTEMPTY || errno == EEXIST || errno == ENOENT { return }
        throw failure("rmdir", name, expectingDirectory: true)
    }

    /// The entries (without `.` and `..`), none of them followed.
    func entries() throws(FileIOError) -> [Entry] {
        let copy = dup(descriptor)
        guard copy >= 0 else { throw .system(.current("dup", path)) }
        guard let stream = fdopendir(copy) else {
            let failure = PosixError.current("opendir", path)
            close(copy)
            throw .system(failure)
        }
        defer { closedir(stream) }
        rewinddir(stream)  // the copy shares its offset with earlier listings
        var result: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }  // removed meanwhile
            let type = info.st_mode & S_IFMT
            result.append(Entry(name: name, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG, isSymbolicLink: type == S_IFLNK))
        }
        return result
    }

    /// Flushes the directory's entries (a rename or a new file in it) to disk.
    func sync() throws(FileIOError) {
        // Some file systems cannot fsync a directory; they report EINVAL and need none.
        if fsync(descriptor) != 0 && errno != EINVAL { throw .system(.current("fsync", path)) }
    }

    /// The error for a failed call on entry `name` (with `errno` still set): a refusal when the
    /// entry is a link, or not what the call expected; otherwise the system error.
    func failure(_ operation: String, _ name: String, expectingDirectory: Bool) -> FileIOError {
        let system = PosixError.current(operation, path + "/" + name)
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .system(system) }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { return .refused(.symbolicLink(at: system.path)) }
        if expectingDirectory { return type == S_IFDIR ? .system(system) : .refused(.notADirectory(at: system.path)) }
        return type == S_IFREG ? .system(system) : .refused(.notARegularFile(at: system.path))
    }
}
