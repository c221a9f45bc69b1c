import AuthCore

extension FileStoreEngine {
    /// Removes temporary files a crashed writer left behind, anywhere in the store.
    ///
    /// Runs under the write lock: a live writer in another process holds that lock while its
    /// temporary file exists, so only leftovers of dead writers are removed.
    func removeTemporaryFiles() throws(CredentialStoreError) {
        try withWriteLock { () throws(CredentialStoreError) in
            try Self.wrap("cannot clean up temporary files") { () throws(PosixError) in
                try removeTemporaryFiles(in: layout.root, depth: 3)
            }
        }
    }

    private func removeTemporaryFiles(in directory: String, depth: Int) throws(PosixError) {
        for entry in try PosixFiles.entries(of: directory) ?? [] {
            let path = directory + "/" + entry.name
            if entry.isRegularFile, entry.name.hasPrefix(PosixFiles.temporaryPrefix) {
                try PosixFiles.removeFile(path)
            } else if entry.isDirectory, depth > 0, entry.name != StoreLayout.locksDirectoryName {
                try removeTemporaryFiles(in: path, depth: depth - 1)
            }
        }
    }

    /// Opens (creating as needed) the refresh lock file of an account.
    /// - Returns: Its descriptor, not yet locked.
    func openRefreshLock(_ account: AccountKey) throws(CredentialStoreError) -> Int32 {
        try Self.wrap("cannot open the account's refresh lock file") { () throws(PosixError) in
            try PosixFiles.makeDirectory(layout.root + "/" + StoreLayout.locksDirectoryName)
            try PosixFiles.makeDirectory(layout.lockDirectory(account.namespace))
            return try PosixFiles.openLockFile(layout.lockPath(account))
        }
    }
}
