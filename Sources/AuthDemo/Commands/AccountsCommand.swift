// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthCore

/// `auth-demo accounts`: lists the accounts in the store.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "accounts", abstract: "List the stored accounts and their credentials (never the secrets).")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await common.withContainer { container, _ in
            let store = container[CredentialStoreKey.self]
            let accounts = try await store.accounts(in: common.namespace)
            if accounts.isEmpty {
                print("no accounts under namespace \(common.namespace) in \(common.store)")
            }
            for account in accounts {
                let key = AccountKey(namespace: common.namespace, account: account)
                let items = try await store.items(of: key)
                let credential = try? await container[CredentialVaultKey.self].load(BearerTokenSet.self, for: key)
                print("\(account): items \(items)\(credential.map { "; \($0)" } ?? "")")
            }
        }
    }
}
