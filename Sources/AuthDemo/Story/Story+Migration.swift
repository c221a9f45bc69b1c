// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthMigration
import Foundation
import HTTPTypes

extension Story {
    /// A legacy single-user tool kept its tokens as one file per key; another kept records in an
    /// AuthFileStore. Both move into the SQLite store, and the imported user can make requests.
    func migrationStep() async {
        await report.step("A legacy single-user file layout and an old file store move into SQLite") {
            try await register("carol")
            let tokens = try await signIn("carol")
            let legacy = folder.appendingPathComponent("legacy-tool", isDirectory: true)
            try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
            try Data(tokens.accessToken.reveal.utf8).write(to: legacy.appendingPathComponent("access_token"))
            try Data((tokens.refreshToken?.reveal ?? "").utf8).write(to: legacy.appendingPathComponent("refresh_token"))

            let store = container[CredentialStoreKey.self]
            let carol = AccountKey(namespace: "demo", account: "carol")
            let imported = try await LegacyImporter(vault: container[CredentialVaultKey.self])
                .importCredential(from: DirectoryKeyValueSource(directory: legacy), layouts: [.standard, .oldPrefixed, .guest], into: carol)
            try check(imported.outcome == .imported, "legacy import: \(imported.outcome)")
            let me = try await bearerClient("carol").json(Me.self, .get, base.appending(path: "me"))
            try check(me.username == "carol", "the imported credential did not work")

            let old = try FileCredentialStore(directory: folder.appendingPathComponent("old-file-store"), options: .init(quarantinesCorruptedRecords: false))
            for index in 0..<120 {
                let key = CredentialKey(namespace: "legacy-app", account: "user-\(index)", item: "credential")
                try await old.put(Envelope(kind: "api-key-header", payload: Data(#"{"headerName":"X-API-Key","key":"k\#(index)","prefix":""}"#.utf8), updatedAt: Date()), for: key)
            }
            let migration = try await StoreMigration(from: old, to: store, mode: .move).run { progress in
                ProgressLine.show("  \(progress.bar(width: 30))", final: progress.done == progress.total)
            }
            let moved = try await store.accounts(in: "legacy-app").count
            let left = try await old.namespaces()
            try check(migration.isComplete && moved == 120 && left.isEmpty, "moved \(moved), left \(left), skipped \(migration.skipped.count)")
            return "carol's legacy files imported (\(imported.foundKeys.joined(separator: ", "))) and used; 120 records moved from the file store, each verified"
        }
    }
}
