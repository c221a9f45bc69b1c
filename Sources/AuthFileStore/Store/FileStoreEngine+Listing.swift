import AuthCore

extension FileStoreEngine {
    /// The item names of one account, sorted.
    func items(of account: AccountKey) throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the account's records") { () throws(PosixError) in
            let directory = layout.accountDirectory(account)
            return try recordFiles(in: directory).compactMap { file in
                resolve(file.decoded, fileName: file.name, candidates: [directory + "/" + file.name]) {
                    ($0.item, FileNameCodec.encode($0.item) + StoreLayout.recordSuffix)
                }
            }.sorted()
        }
    }

    /// The accounts of a namespace that hold at least one record file, sorted.
    func accounts(in namespace: String) throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the namespace's accounts") { () throws(PosixError) in
            let directory = layout.namespaceDirectory(namespace)
            var names: [String] = []
            for account in try componentDirectories(in: directory) {
                let accountDirectory = directory + "/" + account.name
                let records = try recordFiles(in: accountDirectory).map { accountDirectory + "/" + $0.name }
                guard !records.isEmpty else { continue }
                let name = resolve(account.decoded, fileName: account.name, candidates: records) {
                    ($0.account, FileNameCodec.encode($0.account))
                }
                if let name { names.append(name) }
            }
            return names.sorted()
        }
    }

    /// The namespaces that hold at least one record file, sorted.
    func namespaces() throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the store's namespaces") { () throws(PosixError) in
            var names: [String] = []
            for namespace in try componentDirectories(in: layout.root) {
                let directory = layout.root + "/" + namespace.name
                var records: [String] = []
                for account in try componentDirectories(in: directory) {
                    let accountDirectory = directory + "/" + account.name
                    records += try recordFiles(in: accountDirectory).map { accountDirectory + "/" + $0.name }
                    if case .name = namespace.decoded, !records.isEmpty { break }
                }
                guard !records.isEmpty else { continue }
                let name = resolve(namespace.decoded, fileName: namespace.name, candidates: records) {
                    ($0.namespace, FileNameCodec.encode($0.namespace))
                }
                if let name { names.append(name) }
            }
            return names.sorted()
        }
    }

    /// The name a file name stands for: spelled out in it, or, for a hashed long name, read from
    /// the first record in `candidates` whose stored key encodes back to exactly that file name.
    private func resolve(
        _ decoded: FileNameCodec.Decoded,
        fileName: String,
        candidates: [String],
        component: (CredentialKey) -> (name: String, fileName: String)
    ) -> String? {
        if case .name(let name) = decoded { return name }
        for path in candidates {
            guard let key = storedKey(at: path) else { continue }
            let (name, encoded) = component(key)
            if encoded == fileName { return name }
        }
        return nil
    }
}
