// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

extension FileStoreEngine {
    /// Removes temporary files a crashed writer left behind, anywhere in the store.
    ///
    /// Runs under the write lock: a live writer in another process holds that lock while its
    /// temporary file exists, so only leftovers of dead writers are removed. Links are never
    /// followed nor removed.
    ///
    /// Never waits: when another process holds the write lock, it may be writing one of those
    /// files right now, so they stay for the next store that opens.
    func removeTemporaryFiles() throws(CredentialStoreError) {
        try withWriteLockIfFree { () throws(CredentialStoreError) in
            try Self.wrap("cannot clean up temporary files") { () throws(FileIOError) in
                try removeTemporaryFiles(in: root, depth: 3)
            }
        }
    }

    private func removeTemporaryFiles(in directory: StoreDirectory, depth: Int) throws(FileIOError) {
        for entry in try directory.entries() {
            if entry.isRegularFile, entry.name.hasPrefix(PosixFiles.temporaryPrefix) {
                try directory.removeFile(entry.name)
            } else if entry.isDirectory, depth > 0, entry.name != StoreLayout.locksDirectoryName,
                      let subdirectory = try directory.subdirectory(entry.name) {
                try removeTemporaryFiles(in: subdirectory, depth: depth - 1)
            }
        }
    }

    /// Opens (creating as needed) the refresh lock file of an account.
    ///
    /// In a directory this process cannot write (a read-only file system, or a store shared
    /// read-only), the lock file cannot be created: the store's directory itself is locked
    /// instead, so renewals still exclude each other across processes, for all accounts at once.
    /// - Returns: Its descriptor, not yet locked.
    func openRefreshLock(_ account: AccountKey) throws(CredentialStoreError) -> Int32 {
        try Self.wrap("cannot open the account's refresh lock file") { () throws(FileIOError) in
            do throws(FileIOError) {
                let locks = try root.makeSubdirectory(StoreLayout.locksDirectoryName)
                let namespace = try locks.makeSubdirectory(StoreLayout.namespaceName(account.namespace))
                return try namespace.openLockFile(StoreLayout.lockName(account.account))
            } catch .system(let error) where error.deniesWriting {
                return try root.openForLocking()
            }
        }
    }
}
