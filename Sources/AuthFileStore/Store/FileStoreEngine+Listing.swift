// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

extension FileStoreEngine {
    /// The item names of one account, sorted.
    func items(of account: AccountKey) throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the account's records") { () throws(FileIOError) in
            guard let directory = try root.subdirectory(StoreLayout.namespaceName(account.namespace))?
                .subdirectory(StoreLayout.accountName(account.account))
            else { return [] }
            return try recordFiles(in: directory).compactMap { file in
                resolve(file.decoded, fileName: file.name, candidates: [(directory, file.name)]) {
                    ($0.item, StoreLayout.recordName($0.item))
                }
            }.sorted()
        }
    }

    /// The accounts of a namespace that hold at least one record file, sorted.
    func accounts(in namespace: String) throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the namespace's accounts") { () throws(FileIOError) in
            guard let directory = try root.subdirectory(StoreLayout.namespaceName(namespace)) else { return [] }
            var names: [String] = []
            for account in try componentDirectories(in: directory) {
                guard let accountDirectory = try directory.subdirectory(account.name) else { continue }
                let records = try recordFiles(in: accountDirectory).map { (accountDirectory, $0.name) }
                guard !records.isEmpty else { continue }
                let name = resolve(account.decoded, fileName: account.name, candidates: records) {
                    ($0.account, StoreLayout.accountName($0.account))
                }
                if let name { names.append(name) }
            }
            return names.sorted()
        }
    }

    /// The namespaces that hold at least one record file, sorted.
    func namespaces() throws(CredentialStoreError) -> [String] {
        try Self.wrap("cannot list the store's namespaces") { () throws(FileIOError) in
            var names: [String] = []
            for namespace in try componentDirectories(in: root) {
                guard let directory = try root.subdirectory(namespace.name) else { continue }
                var records: [(StoreDirectory, String)] = []
                for account in try componentDirectories(in: directory) {
                    guard let accountDirectory = try directory.subdirectory(account.name) else { continue }
                    records += try recordFiles(in: accountDirectory).map { (accountDirectory, $0.name) }
                    if case .name = namespace.decoded, !records.isEmpty { break }
                }
                guard !records.isEmpty else { continue }
                let name = resolve(namespace.decoded, fileName: namespace.name, candidates: records) {
                    ($0.namespace, StoreLayout.namespaceName($0.namespace))
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
        candidates: [(directory: StoreDirectory, name: String)],
        component: (CredentialKey) -> (name: String, fileName: String)
    ) -> String? {
        if case .name(let name) = decoded { return name }
        for candidate in candidates {
            guard let key = storedKey(candidate.name, in: candidate.directory) else { continue }
            let (name, encoded) = component(key)
            if encoded == fileName { return name }
        }
        return nil
    }
}
