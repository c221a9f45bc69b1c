// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthSQLiteStore
import AuthTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A File → SQLite move of 10,000 records in a child process, killed with SIGKILL midway and run
/// again.
@Suite struct KillResumeTests {
    static let count = 10_000

    /// Record `index`'s key: 5 namespaces × 200 accounts × 10 items.
    static func key(_ index: Int) -> CredentialKey {
        CredentialKey(namespace: "svc\(index / 2_000)", account: "user\(index / 10 % 200)", item: "item\(index % 10)")
    }

    /// The records at `keys` that `store` holds.
    static func records(of keys: [CredentialKey], in store: any CredentialStore) async throws -> [CredentialKey: Envelope] {
        var found: [CredentialKey: Envelope] = [:]
        for key in keys { found[key] = try await store.get(key) }
        return found
    }

    @Test(.timeLimit(.minutes(5)))
    func moveKilledMidwayThenRunAgainLosesNothingAndCopiesEachRecordOnce() async throws {
        try await TestFiles.withTemporaryFolder(preferringMemory: true) { folder in
            let storeDirectory = folder.appendingPathComponent("legacy-files")
            let database = folder.appendingPathComponent("credentials.sqlite").path
            let keys = (0..<Self.count).map(Self.key)
            #expect(Set(keys).count == Self.count)

            // The source: 10,000 records, and what the source gives back for each.
            var originals: [CredentialKey: Envelope] = [:]
            do {
                let source = try FileCredentialStore(directory: storeDirectory)
                for (index, key) in keys.enumerated() { try await source.put(TestFiles.envelope(index), for: key) }
                for key in keys { originals[key] = try await source.get(key) }
            }

            // First run: killed once some thousands of records are done.
            let first = try HelperProcess(named: HelperProcess.migrationHelper.name, override: HelperProcess.migrationHelper.override, arguments: ["move", storeDirectory.path, database, "100"])
            let reached = await first.waitForProgress(atLeast: 2_000)
            first.killWithSIGKILL()
            let firstEnd = await first.waitForExit()
            #expect(reached != nil, "the helper ended before reporting 2,000 records")
            #expect(firstEnd?.reason == .uncaughtSignal && firstEnd?.status == SIGKILL, "the helper was not killed midway: \(String(describing: firstEnd))")

            // Nothing lost: each record is in the source, the target, or both; anything gone from
            // the source is in the target, identical; nothing in either store was altered.
            var movedBeforeKill = 0
            do {
                let source = try FileCredentialStore(directory: storeDirectory, options: .init(quarantinesCorruptedRecords: false))
                let target = try await SQLiteCredentialStore.open(at: database)
                async let sourceRecords = Self.records(of: keys, in: source)
                async let targetRecords = Self.records(of: keys, in: target)
                let (inSource, inTarget) = try await (sourceRecords, targetRecords)
                for key in keys {
                    let original = originals[key]
                    #expect(inSource[key] != nil || inTarget[key] != nil, "\(key) was lost")
                    if let copy = inSource[key] { #expect(copy == original, "\(key) changed in the source") }
                    if let copy = inTarget[key] { #expect(copy == original, "\(key) differs in the target") }
                    if inSource[key] == nil {
                        #expect(inTarget[key] == original, "\(key) left the source before an identical copy was in the target")
                        movedBeforeKill += 1
                    }
                }
                try await target.close()
            }
            #expect(movedBeforeKill >= 1_000, "only \(movedBeforeKill) records were moved before the kill")
            #expect(movedBeforeKill < Self.count, "the kill came after the move had finished")
            // Second run, to the end.
            let second = try HelperProcess(named: HelperProcess.migrationHelper.name, override: HelperProcess.migrationHelper.override, arguments: ["move", storeDirectory.path, database, "1000"])
            let output = await second.remainingLines()
            let secondEnd = await second.waitForExit()
            #expect(secondEnd?.reason == .exit && secondEnd?.status == 0, "second run: \(String(describing: secondEnd)) \(output.suffix(3))")
            let summary = try #require(output.last { $0.hasPrefix("done ") })
            #expect(summary.contains("total=\(Self.count - movedBeforeKill) "), "\(summary)")
            #expect(summary.contains("skipped=0 conflicts=0"), "\(summary)")

            // Every record exactly once in the target, identical; the source is empty.
            let source = try FileCredentialStore(directory: storeDirectory)
            let target = try await SQLiteCredentialStore.open(at: database)
            let targetKeys = try await TestFiles.allKeys(of: target)
            #expect(targetKeys.count == Self.count)
            #expect(Set(targetKeys) == Set(keys))
            let copies = try await Self.records(of: keys, in: target)
            for key in keys { #expect(copies[key] == originals[key], "\(key)") }
            #expect(try await TestFiles.allKeys(of: source).isEmpty)
            try await target.close()
        }
    }
}
