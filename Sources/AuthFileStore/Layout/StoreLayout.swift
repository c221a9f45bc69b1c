// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Where each file of a store lives under its root directory.
///
/// ```
/// <root>/.lock                                   write lock (flock), never removed
/// <root>/.locks/<enc ns>/<enc account>.lock      refresh locks (flock), never removed
/// <root>/<enc ns>/<enc account>/<enc item>.rec   one record per file
/// <root>/<enc ns>/<enc account>/.tmp-<random>    a write in progress (removed on open after a crash)
/// <root>/<enc ns>/<enc account>/<enc item>.rec.corrupt-<UTC time>   a quarantined record
/// ```
/// `enc` is ``FileNameCodec/encode(_:)``. The store reaches these entries one directory at a
/// time from its open root (see ``StoreDirectory``), never through a symbolic link; the path
/// functions here serve messages and tests. Lock files are never deleted: deleting a file
/// another process holds a `flock` on would let a third process lock a new file of the same name.
struct StoreLayout: Sendable {
    /// The real path of the store directory.
    let root: String

    /// The extension of record files.
    static let recordSuffix = ".rec"
    /// The infix of quarantined record files.
    static let quarantineInfix = ".corrupt-"
    /// The directory of refresh lock files.
    static let locksDirectoryName = ".locks"

    /// The file (in the root) that writers of every process take a `flock` on.
    static let writeLockName = ".lock"

    /// The name of a namespace's directory in the root.
    static func namespaceName(_ namespace: String) -> String { FileNameCodec.encode(namespace) }
    /// The name of an account's directory in its namespace's directory.
    static func accountName(_ account: String) -> String { FileNameCodec.encode(account) }
    /// The name of a record file in its account's directory.
    static func recordName(_ item: String) -> String { FileNameCodec.encode(item) + recordSuffix }
    /// The name of an account's refresh lock file in `.locks/<namespace>`.
    static func lockName(_ account: String) -> String { FileNameCodec.encode(account) + ".lock" }

    /// The path of the write lock file, for messages.
    var writeLockPath: String { root + "/" + Self.writeLockName }

    /// The path of a namespace's directory, for messages and tests.
    func namespaceDirectory(_ namespace: String) -> String {
        root + "/" + Self.namespaceName(namespace)
    }

    /// The path of an account's directory, for messages and tests.
    func accountDirectory(_ account: AccountKey) -> String {
        namespaceDirectory(account.namespace) + "/" + Self.accountName(account.account)
    }

    /// The path of a record file, for messages and tests.
    func recordPath(_ key: CredentialKey) -> String {
        accountDirectory(key.accountKey) + "/" + Self.recordName(key.item)
    }

    /// The path of the directory holding a namespace's refresh lock files, for messages and tests.
    func lockDirectory(_ namespace: String) -> String {
        root + "/" + Self.locksDirectoryName + "/" + Self.namespaceName(namespace)
    }

    /// The path of an account's refresh lock file, for messages and tests.
    func lockPath(_ account: AccountKey) -> String {
        lockDirectory(account.namespace) + "/" + Self.lockName(account.account)
    }

    /// What a record file name stands for, or nil when it is not a record file.
    static func decodeRecordFileName(_ name: String) -> FileNameCodec.Decoded? {
        guard name.hasSuffix(recordSuffix) else { return nil }
        return FileNameCodec.decode(String(name.dropLast(recordSuffix.count)))
    }

    /// Whether the file names encode the same components as `key` (after normalization).
    static func matches(_ stored: CredentialKey, _ key: CredentialKey) -> Bool {
        FileNameCodec.encode(stored.namespace) == FileNameCodec.encode(key.namespace)
            && FileNameCodec.encode(stored.account) == FileNameCodec.encode(key.account)
            && FileNameCodec.encode(stored.item) == FileNameCodec.encode(key.item)
    }
}
