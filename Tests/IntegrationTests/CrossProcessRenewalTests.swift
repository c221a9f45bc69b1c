// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthSQLiteStore
import AuthTestServer
import Foundation
import Testing

/// Two OS processes share one store and one account and cross an access-token expiry together
/// against the real server with rotating refresh tokens: the server must see exactly one renewal
/// and no reuse of a rotated refresh token.
@Suite struct CrossProcessRenewalTests {
    @Test(arguments: ["sqlite", "file"])
    func twoProcessesRenewOnce(kind: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitCrossProcess-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = kind == "sqlite" ? directory.appendingPathComponent("credentials.sqlite").path : directory.appendingPathComponent("store").path
        let account = AccountKey(namespace: "testserver", account: "alice")

        try await Harness.run { h in
            try await h.register("alice")
            let tokens = try await h.login("alice")
            do {
                let store: any CredentialStore = kind == "sqlite" ? try await SQLiteCredentialStore.open(at: path) : try FileCredentialStore(directory: URL(fileURLWithPath: path))
                try await CredentialVault(store: store).save(tokens, for: account)
                if let sqlite = store as? SQLiteCredentialStore { try await sqlite.close() }
            }
            h.server.clock.advance(by: 301)
            h.server.resetCounters()

            let arguments = [kind, path, h.base.absoluteString, account.namespace, account.account, "40"]
            async let first = WorkerProcess.run(arguments)
            async let second = WorkerProcess.run(arguments)
            let results = try await [first, second]
            for result in results {
                #expect(result.status == 0, "worker said: \(result.output)")
                #expect(result.output.contains("ok 40"))
            }
            let counters = h.server.counters
            #expect(counters.renewals == 1)
            #expect(counters.rejectedReuse == 0)
            #expect(counters.requests(path: "/me") >= 80)
        }
    }
}
