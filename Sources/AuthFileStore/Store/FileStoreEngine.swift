// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The blocking core of ``FileCredentialStore``: every operation as a synchronous function.
///
/// ``FileCredentialStore`` runs these on its own dispatch queue. Every change (put, delete,
/// quarantine, clean-up) happens while holding an exclusive `flock` on `<root>/.lock`, so writers
/// in different processes exclude each other; readers take no lock, since `rename` replaces a
/// record file whole. Every entry is reached from the open ``root`` one directory at a time,
/// never through a symbolic link (see `StoreDirectoryPolicy`).
struct FileStoreEngine: Sendable {
    /// Where the files are (paths, for messages).
    let layout: StoreLayout
    /// The store's directory, open for the store's life.
    let root: StoreDirectory
    /// How long to wait for a lock held by another process.
    let lockTimeout: Duration
    /// Whether records that cannot be decoded are moved aside.
    let quarantinesCorruptedRecords: Bool
    /// The clock that names quarantined files.
    let now: @Sendable () -> Date

    /// Writes a record atomically, creating its directories (mode 0700) as needed.
    func put(_ envelope: Envelope, for key: CredentialKey) throws(CredentialStoreError) {
        let bytes = try Self.encode(envelope, for: key)
        try withWriteLock { () throws(CredentialStoreError) in try write(bytes, for: key) }
    }

    /// Encodes a record file's bytes.
    static func encode(_ envelope: Envelope, for key: CredentialKey) throws(CredentialStoreError) -> [UInt8] {
        let canonicalKey = CredentialKey(
            namespace: FileNameCodec.canonical(key.namespace),
            account: FileNameCodec.canonical(key.account),
            item: FileNameCodec.canonical(key.item))
        do {
            return try RecordFile(key: canonicalKey, envelope: envelope).encoded()
        } catch {
            throw CredentialStoreError(code: .io, message: "cannot encode the record", key: key, underlying: error)
        }
    }

    /// Writes a record file; the caller holds the write lock.
    private func write(_ bytes: [UInt8], for key: CredentialKey) throws(CredentialStoreError) {
        try Self.wrap("cannot write the record file", key: key) { () throws(FileIOError) in
            let namespace = try root.makeSubdirectory(StoreLayout.namespaceName(key.namespace))
            let account = try namespace.makeSubdirectory(StoreLayout.accountName(key.account))
            try account.writeAtomically(bytes, to: StoreLayout.recordName(key.item))
        }
    }

    /// Writes or removes a record only if it is still `expected`, under the write lock. A record
    /// that cannot be decoded is not `expected`.
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) throws(CredentialStoreError) -> Bool {
        let bytes = try envelope.map { envelope throws(CredentialStoreError) in try Self.encode(envelope, for: key) }
        return try withWriteLock { () throws(CredentialStoreError) -> Bool in
            let found: Envelope?
            switch try read(key).map({ judge($0, key: key) }) {
            case nil: found = nil
            case .record(let envelope)?: found = envelope
            default: return false
            }
            guard Self.sameRecord(found, expected) else { return false }
            if let bytes { try write(bytes, for: key) } else { try remove(key) }
            return true
        }
    }

    /// Whether a record read from a file is `expected`: the same kind, version and payload bytes,
    /// and times equal within a microsecond (a record file keeps times since 1970, which can
    /// differ from a `Date` in its last bit).
    static func sameRecord(_ found: Envelope?, _ expected: Envelope?) -> Bool {
        guard let found, let expected else { return found == nil && expected == nil }
        func close(_ a: Date?, _ b: Date?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a.timeIntervalSince(b)) < 1e-6
        }
        return found.kind == expected.kind && found.formatVersion == expected.formatVersion && found.payload == expected.payload
            && close(found.updatedAt, expected.updatedAt) && close(found.expiresAt, expected.expiresAt)
    }

    /// Removes one record file, then its directories if they became empty.
    func delete(_ key: CredentialKey) throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in try remove(key) }
    }

    /// Removes a record file and its emptied directories; the caller holds the write lock.
    private func remove(_ key: CredentialKey) throws(CredentialStoreError) {
        try Self.wrap("cannot remove the record file", key: key) { () throws(FileIOError) in
            let namespaceName = StoreLayout.namespaceName(key.namespace)
            guard let namespace = try root.subdirectory(namespaceName) else { return }
            let accountName = StoreLayout.accountName(key.account)
            if let account = try namespace.subdirectory(accountName) {
                if try account.removeFile(StoreLayout.recordName(key.item)) { try account.sync() }
                try namespace.removeSubdirectoryIfEmpty(accountName)
            }
            try root.removeSubdirectoryIfEmpty(namespaceName)
        }
    }

    /// Removes the record files of one account; quarantined files stay.
    /// - Throws: `.io` naming a link met in place of a record (after removing the rest).
    func deleteAccount(_ account: AccountKey) throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot remove the account's records") { () throws(FileIOError) in
                let namespaceName = StoreLayout.namespaceName(account.namespace)
                guard let namespace = try root.subdirectory(namespaceName) else { return }
                let accountName = StoreLayout.accountName(account.account)
                if let directory = try namespace.subdirectory(accountName) {
                    let links = try removeRecords(in: directory)
                    try namespace.removeSubdirectoryIfEmpty(accountName)
                    if let link = links.first { throw .refused(.symbolicLink(at: link)) }
                }
                try root.removeSubdirectoryIfEmpty(namespaceName)
            }
        }
    }

    /// Removes every record file; quarantined files and lock files stay. Links in place of a
    /// namespace, an account or a record are skipped, never followed nor removed.
    /// - Throws: `.io` naming the first such link, after removing every record.
    func deleteAll() throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot remove the store's records") { () throws(FileIOError) in
                var links: [String] = []
                for namespaceEntry in try root.entries() where FileNameCodec.decode(namespaceEntry.name) != nil {
                    if namespaceEntry.isSymbolicLink { links.append(root.path + "/" + namespaceEntry.name) }
                    guard namespaceEntry.isDirectory, let namespace = try root.subdirectory(namespaceEntry.name) else { continue }
                    for accountEntry in try namespace.entries() where FileNameCodec.decode(accountEntry.name) != nil {
                        if accountEntry.isSymbolicLink { links.append(namespace.path + "/" + accountEntry.name) }
                        guard accountEntry.isDirectory, let account = try namespace.subdirectory(accountEntry.name) else { continue }
                        links += try removeRecords(in: account)
                        try namespace.removeSubdirectoryIfEmpty(accountEntry.name)
                    }
                    try root.removeSubdirectoryIfEmpty(namespaceEntry.name)
                }
                if let link = links.first { throw .refused(.symbolicLink(at: link)) }
            }
        }
    }

    /// Runs `body` holding the exclusive `flock` of `<root>/.lock`, waiting up to the lock timeout.
    /// - Throws: `.unavailable` when another process holds the lock for longer than that.
    func withWriteLock<T>(_ body: () throws(CredentialStoreError) -> T) throws(CredentialStoreError) -> T {
        let path = layout.writeLockPath
        let fd = try Self.wrap("cannot open the store's write lock") { () throws(FileIOError) in
            try root.openLockFile(StoreLayout.writeLockName)
        }
        defer { PosixFiles.unlockAndClose(fd) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: lockTimeout)
        var pause: UInt32 = 500
        while !(try Self.wrap("cannot lock the store", { () throws(FileIOError) in try Self.system { () throws(PosixError) in try PosixFiles.tryLock(fd, path: path) } })) {
            guard clock.now < deadline else {
                throw CredentialStoreError.unavailable("another process held the store's write lock for longer than \(lockTimeout); try again later", path: path)
            }
            usleep(pause)  // on the store's own queue, never on the cooperative pool
            pause = min(pause * 2, 20_000)
        }
        return try body()
    }

    /// Runs `body` holding the exclusive `flock` of `<root>/.lock` if no one holds it; does nothing
    /// otherwise.
    /// In a directory this process cannot write there is nothing it could change: also nothing.
    func withWriteLockIfFree(_ body: () throws(CredentialStoreError) -> Void) throws(CredentialStoreError) {
        let path = layout.writeLockPath
        let opened = try Self.wrap("cannot open the store's write lock") { () throws(FileIOError) -> Int32? in
            do throws(FileIOError) {
                return try root.openLockFile(StoreLayout.writeLockName)
            } catch .system(let error) where error.deniesWriting {
                return nil
            }
        }
        guard let fd = opened else { return }
        defer { PosixFiles.unlockAndClose(fd) }
        guard try Self.wrap("cannot lock the store", { () throws(FileIOError) in try Self.system { () throws(PosixError) in try PosixFiles.tryLock(fd, path: path) } }) else { return }
        try body()
    }

    /// The subdirectories of `directory` whose names decode as key components (links excluded).
    func componentDirectories(in directory: StoreDirectory) throws(FileIOError) -> [(name: String, decoded: FileNameCodec.Decoded)] {
        try directory.entries().compactMap { entry in
            guard entry.isDirectory, let decoded = FileNameCodec.decode(entry.name) else { return nil }
            return (entry.name, decoded)
        }
    }

    /// The record files in an account directory (links excluded).
    func recordFiles(in directory: StoreDirectory) throws(FileIOError) -> [(name: String, decoded: FileNameCodec.Decoded)] {
        try directory.entries().compactMap { entry in
            guard entry.isRegularFile, let decoded = StoreLayout.decodeRecordFileName(entry.name) else { return nil }
            return (entry.name, decoded)
        }
    }

    /// Removes the record and temporary files of one account directory.
    /// - Returns: The paths of links found in place of such files, left as they are.
    private func removeRecords(in directory: StoreDirectory) throws(FileIOError) -> [String] {
        var removed = false
        var links: [String] = []
        for entry in try directory.entries() {
            guard StoreLayout.decodeRecordFileName(entry.name) != nil || entry.name.hasPrefix(PosixFiles.temporaryPrefix) else { continue }
            if entry.isSymbolicLink { links.append(directory.path + "/" + entry.name) }
            if entry.isRegularFile { removed = try directory.removeFile(entry.name) || removed }
        }
        if removed { try directory.sync() }
        return links
    }

    /// Runs a file step, turning its failure into a `.io` store error naming the file; a
    /// refusal by the directory policy says what was wrong (`… is a symbolic link; …`).
    static func wrap<T>(_ message: String, key: CredentialKey? = nil, _ body: () throws(FileIOError) -> T) throws(CredentialStoreError) -> T {
        do {
            return try body()
        } catch {
            switch error {
            case .system(let failure):
                throw CredentialStoreError(code: .io, message: message, key: key, path: failure.path, underlying: failure)
            case .refused(let refusal):
                throw CredentialStoreError(code: .io, message: "\(message): \(refusal.message)", key: key, path: refusal.path, underlying: refusal)
            }
        }
    }

    /// Runs a system call wrapper, as a file step.
    static func system<T>(_ body: () throws(PosixError) -> T) throws(FileIOError) -> T {
        do {
            return try body()
        } catch {
            throw .system(error)
        }
    }
}
