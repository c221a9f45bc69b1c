// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import AuthTesting
import Foundation
import Testing

/// Tests with real OS processes (`sqlite-store-helper`, see ``HelperProcess``) sharing one file.
@Suite(.serialized) struct MultiProcessTests {
    @Test func theRefreshLeaseExcludesAcrossProcessesSoNoIncrementIsLost() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("counter.sqlite").path
            let account = AccountKey(namespace: "multi", account: "alice")
            let key = account.item("counter")
            let perProcess = 40, inProcess = 20
            // The three processes create and migrate the new file at the same time.
            let helpers = try (0..<2).map { _ in
                try HelperProcess(named: "sqlite-store-helper", override: "AUTHKIT_SQLITE_HELPER", arguments: ["increment", path, "alice", String(perProcess), "2"])
            }
            let store = try await SQLiteCredentialStore.open(at: path, options: SQLiteStoreOptions(busyTimeout: .seconds(30)))
            // This process takes part too, through the same lease.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        for _ in 0..<(inProcess / 2) {
                            try await store.withRefreshLock(for: account) {
                                let current = try await store.get(key).flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) } ?? 0
                                try await Task.sleep(for: .milliseconds(2))
                                try await store.put(Envelope(kind: "counter", payload: Data(String(current + 1).utf8), updatedAt: Date()), for: key)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for helper in helpers {
                let output = await helper.remainingLines()
                let exit = await helper.waitForExit()
                #expect(exit?.reason == .exit && exit?.status == 0, "a helper failed: \(String(describing: exit))")
                #expect(output.contains { $0.contains("done \(perProcess)") })
            }
            let counter = try await store.get(key).flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) }
            #expect(counter == 2 * perProcess + inProcess, "increments were lost: the lease did not exclude")
        }
    }

    @Test func aWriterKilledMidWriteTwentyTimesLeavesOnlyWholeRecords() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("crash.sqlite").path
            let account = AccountKey(namespace: "crash", account: "writer")
            var recordsSeen = 0
            for round in 0..<20 {
                let writer = try HelperProcess(named: "sqlite-store-helper", override: "AUTHKIT_SQLITE_HELPER", arguments: ["write-loop", path])
                let ready = await writer.waitForLine("ready")
                #expect(ready, "round \(round): the writer did not start")
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...40)))
                writer.killWithSIGKILL()
                let exit = await writer.waitForExit()
                #expect(exit?.reason == .uncaughtSignal && exit?.status == SIGKILL, "round \(round): the writer was not killed")

                let store = try await SQLiteCredentialStore.open(at: path)
                var batchSeqs: Set<UInt64> = []
                var batchCount = 0
                for item in try await store.items(of: account) {
                    let envelope = try #require(try await store.get(account.item(item)))
                    let seq = SequencePayload.decode(envelope.payload)
                    #expect(seq != nil, "round \(round): record \(item) holds a torn or mixed value")
                    if item.hasPrefix("batch-"), let seq {
                        batchSeqs.insert(seq)
                        batchCount += 1
                    }
                    recordsSeen += 1
                }
                #expect(batchCount == 4 && batchSeqs.count == 1, "round \(round): a batch was partly written (\(batchCount) items, \(batchSeqs.count) sequence numbers)")
                try await store.close()
            }
            #expect(recordsSeen > 20)
        }
    }
}
