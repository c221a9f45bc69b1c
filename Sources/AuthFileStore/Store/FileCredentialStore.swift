// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import Dispatch

/// A ``/AuthCore/CredentialStore`` that keeps each record in its own file under a directory, safe to share
/// between processes.
///
/// - **Layout:** `<root>/<namespace>/<account>/<item>.rec`, each name hex-encoded (or hashed
///   when long; see `FileNameCodec`), so no name can leave the directory or collide with another.
/// - **Atomic writes:** a temporary file, `fsync`, `rename`, `fsync` of the directory. After a
///   crash a record holds its old or its new value; leftover temporary files are removed when a
///   store opens. Files are mode 0600 and directories 0700 whatever the umask.
/// - **Links:** the path you give may lead to the directory through symbolic links; inside it,
///   none is ever followed. A record, account, namespace or lock that is a link is refused with
///   `CredentialStoreError.io` naming it (`… is a symbolic link; the store never follows links
///   inside its directory …`), and left in place; see `StoreDirectoryPolicy`.
/// - **Processes:** writers take an exclusive `flock` on `<root>/.lock`; ``withRefreshLock(for:_:)``
///   holds a per-account `flock`, which the system releases if the holder dies.
/// - **Damage:** a record file that cannot be decoded throws `CredentialStoreError.corrupted`
///   naming the file, and is renamed to `<name>.corrupt-<UTC time>` beside it, never deleted.
/// - **Threads:** file I/O runs on the store's own serial dispatch queue, not on the cooperative
///   thread pool; waiting for a lock held by another process suspends the task.
///
/// ```swift
/// let store = try FileCredentialStore(directory: appSupport.appendingPathComponent("credentials"))
/// try await store.put(envelope, for: CredentialKey(namespace: "github", account: "alice", item: "credential"))
/// let stored = try await store.get(CredentialKey(namespace: "github", account: "alice", item: "credential"))
/// ```
public final class FileCredentialStore: CredentialStore, RefreshLocking {
    /// The store's directory, with symbolic links resolved.
    public let directory: URL
    let engine: FileStoreEngine
    let options: Options
    let accountLocks = AccountLocks()
    private let queue = DispatchQueue(label: "AuthFileStore.io")

    /// Opens the store in `directory`, creating it (mode 0700) if it does not exist.
    ///
    /// An existing directory must belong to this user and must not be writable by group or
    /// others, sticky bit or not (so `/tmp` itself is refused: use a private folder in it).
    /// Links in the path to it are followed; the store keeps the directory open and never
    /// follows a link inside it. Temporary files left by a crashed writer are removed, unless
    /// another process holds the write lock: opening never waits for a lock.
    /// - Parameters:
    ///   - directory: The store's directory.
    ///   - options: Lock timeout, quarantine and clock.
    /// - Throws: ``FileStoreError`` when the directory is unsafe or cannot be created;
    ///   `CredentialStoreError` when the clean-up fails.
    public init(directory: URL, options: Options = Options()) throws {
        let root = try DirectoryGuard.prepare(directory)
        self.directory = URL(fileURLWithPath: root.path, isDirectory: true)
        self.options = options
        self.engine = FileStoreEngine(
            layout: StoreLayout(root: root.path),
            root: root,
            lockTimeout: options.lockTimeout,
            quarantinesCorruptedRecords: options.quarantinesCorruptedRecords,
            now: options.now)
        try engine.removeTemporaryFiles()
    }

    /// The record at `key`, or nil when there is none.
    /// - Throws: `.corrupted` (naming the file, which is moved aside), `.incompatibleVersion`,
    ///   `.unavailable` or `.io`.
    public func get(_ key: CredentialKey) async throws -> Envelope? {
        try await run { try $0.get(key) }
    }

    /// Writes the record at `key` atomically, replacing any previous one.
    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try await run { try $0.put(envelope, for: key) }
    }

    /// Writes (or, with nil, removes) the record at `key` under the store's write lock, only if
    /// the record there is still `expected`.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await run { try $0.replace(key, ifCurrent: expected, with: envelope) }
    }

    /// Removes the record at `key`; removing a missing record is not an error.
    public func delete(_ key: CredentialKey) async throws {
        try await run { try $0.delete(key) }
    }

    /// The item names of one account, sorted.
    public func items(of account: AccountKey) async throws -> [String] {
        try await run { try $0.items(of: account) }
    }

    /// The accounts of `namespace` that have at least one record, sorted.
    public func accounts(in namespace: String) async throws -> [String] {
        try await run { try $0.accounts(in: KeyNormalization.nfc(namespace)) }
    }

    /// The namespaces that have at least one record, sorted.
    public func namespaces() async throws -> [String] {
        try await run { try $0.namespaces() }
    }

    /// Removes every record of one account (quarantined files stay for inspection).
    public func deleteAccount(_ account: AccountKey) async throws {
        try await run { try $0.deleteAccount(account) }
    }

    /// Removes every record (quarantined files and lock files stay).
    public func deleteAll() async throws {
        try await run { try $0.deleteAll() }
    }

    /// Runs blocking file work on the store's queue and resumes the caller with its result.
    func run<T: Sendable>(_ work: @escaping @Sendable (FileStoreEngine) throws -> T) async throws -> T {
        let engine = self.engine
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work(engine) }) }
        }
    }
}
