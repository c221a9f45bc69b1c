// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthTesting
import Foundation
import Testing

@Suite struct CrossProcessLockTests {
    static let counterKey = CredentialKey(namespace: "race", account: "shared", item: "counter")

    @Test func twoProcessesAndThisOneIncrementWithoutLosingAnUpdate() async throws {
        let helper = try #require(try? PackageExecutable.url(named: "AuthFileStoreTestHelper", override: "AUTHFILESTORE_TEST_HELPER"), "build the AuthFileStoreTestHelper product first")
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("store")
            let store = try FileCredentialStore(directory: directory)
            let perProcess = 40
            let helpers = try (0..<2).map { _ in try HelperProcess(helper, arguments: ["counter", directory.path, "\(perProcess)"]) }

            let key = Self.counterKey
            for _ in 0..<perProcess {
                try await store.withRefreshLock(for: key.accountKey) {
                    let current = try await store.get(key).flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) } ?? 0
                    try await Task.sleep(for: .milliseconds(1))
                    try await store.put(TestFiles.envelope(String(current + 1), kind: "counter"), for: key)
                }
            }
            for process in helpers {
                var output: [String] = []
                for await line in process.lines { output.append(line) }
                let ending = await process.waitForExit()
                #expect(ending?.reason == .exit && ending?.status == 0)
                #expect(output == ["done"])
            }
            let final = try await store.get(key).flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) }
            #expect(final == 3 * perProcess)
        }
    }

    /// A caller of this process waiting for the refresh lock that another caller of this
    /// process holds gives up at the lock timeout, or when cancelled (it waited as long as the
    /// holder held the lock).
    @Test func aWaiterInThisProcessGivesUpAtTheLockTimeoutOrWhenCancelled() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"), options: .init(lockTimeout: .milliseconds(150)))
            try await CredentialStoreConformance.checkRefreshLockWaitsAreBounded(store)
        }
    }

    @Test func aLockHeldByAnotherStoreTimesOutAsUnavailable() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("store")
            // Two stores on one directory hold separate open files, so their flocks exclude each
            // other exactly as two processes' would.
            let holder = try FileCredentialStore(directory: directory)
            let waiter = try FileCredentialStore(directory: directory, options: .init(lockTimeout: .milliseconds(50)))
            let account = AccountKey(namespace: "n", account: "alice")
            let other = AccountKey(namespace: "n", account: "bob")
            try await holder.withRefreshLock(for: account) {
                let error = await #expect(throws: CredentialStoreError.self) {
                    try await waiter.withRefreshLock(for: account) {}
                }
                #expect(error?.code == .unavailable)
                // Another account's lock is independent.
                let ran = try await waiter.withRefreshLock(for: other) { "ran" }
                #expect(ran == "ran")
            }
            // Released when the holder's body returns.
            #expect(try await waiter.withRefreshLock(for: account) { 7 } == 7)
        }
    }
}
