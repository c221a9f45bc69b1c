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
/// record file whole.
struct FileStoreEngine: Sendable {
    /// Where the files are.
    let layout: StoreLayout
    /// How long to wait for a lock held by another process.
    let lockTimeout: Duration
    /// Whether records that cannot be decoded are moved aside.
    let quarantinesCorruptedRecords: Bool
    /// The clock that names quarantined files.
    let now: @Sendable () -> Date

    /// Writes a record atomically, creating its directories (mode 0700) as needed.
    func put(_ envelope: Envelope, for key: CredentialKey) throws(CredentialStoreError) {
        let canonicalKey = CredentialKey(
            namespace: FileNameCodec.canonical(key.namespace),
            account: FileNameCodec.canonical(key.account),
            item: FileNameCodec.canonical(key.item))
        let bytes: [UInt8]
        do {
            bytes = try RecordFile(key: canonicalKey, envelope: envelope).encoded()
        } catch {
            throw CredentialStoreError(code: .io, message: "cannot encode the record", key: key, underlying: error)
        }
        try withWriteLock { () throws(CredentialStoreError) in
            let namespaceDirectory = layout.namespaceDirectory(key.namespace)
            let accountDirectory = layout.accountDirectory(key.accountKey)
            try Self.wrap("cannot write the record file", key: key) { () throws(PosixError) in
                if try PosixFiles.makeDirectory(namespaceDirectory) { try PosixFiles.syncDirectory(layout.root) }
                if try PosixFiles.makeDirectory(accountDirectory) { try PosixFiles.syncDirectory(namespaceDirectory) }
                try PosixFiles.writeAtomically(bytes, to: layout.recordPath(key), directory: accountDirectory)
            }
        }
    }

    /// Removes one record file, then its directories if they became empty.
    func delete(_ key: CredentialKey) throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot remove the record file", key: key) { () throws(PosixError) in
                if try PosixFiles.removeFile(layout.recordPath(key)) {
                    try PosixFiles.syncDirectory(layout.accountDirectory(key.accountKey))
                }
                try PosixFiles.removeDirectoryIfEmpty(layout.accountDirectory(key.accountKey))
                try PosixFiles.removeDirectoryIfEmpty(layout.namespaceDirectory(key.namespace))
            }
        }
    }

    /// Removes the record files of one account; quarantined files stay.
    func deleteAccount(_ account: AccountKey) throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot remove the account's records") { () throws(PosixError) in
                try removeRecords(in: layout.accountDirectory(account))
                try PosixFiles.removeDirectoryIfEmpty(layout.namespaceDirectory(account.namespace))
            }
        }
    }

    /// Removes every record file; quarantined files and lock files stay.
    func deleteAll() throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot remove the store's records") { () throws(PosixError) in
                for namespace in try componentDirectories(in: layout.root) {
                    let namespaceDirectory = layout.root + "/" + namespace.name
                    for account in try componentDirectories(in: namespaceDirectory) {
                        try removeRecords(in: namespaceDirectory + "/" + account.name)
                    }
                    try PosixFiles.removeDirectoryIfEmpty(namespaceDirectory)
                }
            }
        }
    }

    /// Runs `body` holding the exclusive `flock` of `<root>/.lock`, waiting up to the lock timeout.
    /// - Throws: `.unavailable` when another process holds the lock for longer than that.
    func withWriteLock<T>(_ body: () throws(CredentialStoreError) -> T) throws(CredentialStoreError) -> T {
        let path = layout.writeLockPath
        let fd = try Self.wrap("cannot open the store's write lock") { () throws(PosixError) in try PosixFiles.openLockFile(path) }
        defer { PosixFiles.unlockAndClose(fd) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: lockTimeout)
        var pause: UInt32 = 500
        while !(try Self.wrap("cannot lock the store", { () throws(PosixError) in try PosixFiles.tryLock(fd, path: path) })) {
            guard clock.now < deadline else {
                throw CredentialStoreError.unavailable("another process held the store's write lock for longer than \(lockTimeout); try again later", path: path)
            }
            usleep(pause)  // on the store's own queue, never on the cooperative pool
            pause = min(pause * 2, 20_000)
        }
        return try body()
    }

    /// The subdirectories of `path` whose names decode as key components.
    func componentDirectories(in path: String) throws(PosixError) -> [(name: String, decoded: FileNameCodec.Decoded)] {
        (try PosixFiles.entries(of: path) ?? []).compactMap { entry in
            guard entry.isDirectory, let decoded = FileNameCodec.decode(entry.name) else { return nil }
            return (entry.name, decoded)
        }
    }

    /// The record files in an account directory.
    func recordFiles(in path: String) throws(PosixError) -> [(name: String, decoded: FileNameCodec.Decoded)] {
        (try PosixFiles.entries(of: path) ?? []).compactMap { entry in
            guard entry.isRegularFile, let decoded = StoreLayout.decodeRecordFileName(entry.name) else { return nil }
            return (entry.name, decoded)
        }
    }

    /// Removes the record and temporary files of one account directory, and the directory if
    /// nothing else (a quarantined file) is left in it.
    private func removeRecords(in accountDirectory: String) throws(PosixError) {
        var removed = false
        for entry in try PosixFiles.entries(of: accountDirectory) ?? [] where entry.isRegularFile {
            if StoreLayout.decodeRecordFileName(entry.name) != nil || entry.name.hasPrefix(PosixFiles.temporaryPrefix) {
                removed = try PosixFiles.removeFile(accountDirectory + "/" + entry.name) || removed
            }
        }
        if removed { try PosixFiles.syncDirectory(accountDirectory) }
        try PosixFiles.removeDirectoryIfEmpty(accountDirectory)
    }

    /// Runs a POSIX step, turning its failure into a `.io` store error naming the file.
    static func wrap<T>(_ message: String, key: CredentialKey? = nil, _ body: () throws(PosixError) -> T) throws(CredentialStoreError) -> T {
        do {
            return try body()
        } catch {
            throw CredentialStoreError(code: .io, message: message, key: key, path: error.path, underlying: error)
        }
    }
}
