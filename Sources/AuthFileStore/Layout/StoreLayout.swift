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
/// `enc` is ``FileNameCodec/encode(_:)``. Lock files are never deleted: deleting a file another
/// process holds a `flock` on would let a third process lock a new file of the same name.
struct StoreLayout: Sendable {
    /// The real path of the store directory.
    let root: String

    /// The extension of record files.
    static let recordSuffix = ".rec"
    /// The infix of quarantined record files.
    static let quarantineInfix = ".corrupt-"
    /// The directory of refresh lock files.
    static let locksDirectoryName = ".locks"

    /// The file that writers of every process take a `flock` on.
    var writeLockPath: String { root + "/.lock" }

    /// The directory of one namespace.
    func namespaceDirectory(_ namespace: String) -> String {
        root + "/" + FileNameCodec.encode(namespace)
    }

    /// The directory of one account.
    func accountDirectory(_ account: AccountKey) -> String {
        namespaceDirectory(account.namespace) + "/" + FileNameCodec.encode(account.account)
    }

    /// The file of one record.
    func recordPath(_ key: CredentialKey) -> String {
        accountDirectory(key.accountKey) + "/" + FileNameCodec.encode(key.item) + Self.recordSuffix
    }

    /// The directory holding the refresh lock files of one namespace.
    func lockDirectory(_ namespace: String) -> String {
        root + "/" + Self.locksDirectoryName + "/" + FileNameCodec.encode(namespace)
    }

    /// The refresh lock file of one account.
    func lockPath(_ account: AccountKey) -> String {
        lockDirectory(account.namespace) + "/" + FileNameCodec.encode(account.account) + ".lock"
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
