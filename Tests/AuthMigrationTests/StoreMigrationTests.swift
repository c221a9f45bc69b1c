// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthFileStore
import AuthMigration
import AuthSQLiteStore
import Foundation
import Testing

@Suite struct StoreMigrationTests {
    /// 24 keys over 2 namespaces, 3 accounts each, 4 items each.
    static let keys: [CredentialKey] = ["github", "api.example.com"].flatMap { namespace in
        ["alice", "bob", "carol"].flatMap { account in
            ["credential", "device-id", "profile", "extra"].map { CredentialKey(namespace: namespace, account: account, item: $0) }
        }
    }

    /// A file store (damaged records left in place) holding `keys`, and an empty SQLite store.
    static func withStores(_ body: (FileCredentialStore, SQLiteCredentialStore, [CredentialKey: Envelope]) async throws -> Void) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let source = try FileCredentialStore(directory: folder.appendingPathComponent("files"), options: .init(quarantinesCorruptedRecords: false))
            let target = try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("target.sqlite").path)
            var originals: [CredentialKey: Envelope] = [:]
            for (index, key) in keys.enumerated() {
                try await source.put(TestFiles.envelope(index), for: key)
                originals[key] = try await source.get(key)
            }
            try await body(source, target, originals)
            try await target.close()
        }
    }

    @Test func copyVerifiesEveryRecordAndRunningAgainChangesNothing() async throws {
        try await Self.withStores { source, target, originals in
            let seen = ProgressLog()
            let report = try await StoreMigration(from: source, to: target).run { seen.append($0) }
            #expect(report.total == Self.keys.count)
            #expect(Set(report.copied) == Set(Self.keys))
            #expect(report.isComplete)
            #expect(report.removedFromSource.isEmpty)
            for (key, original) in originals {
                #expect(try await target.get(key) == original)
                #expect(try await source.get(key) == original)
            }
            let progress = seen.all
            #expect(progress.map(\.done) == Array(1...Self.keys.count))
            #expect(progress.allSatisfy { $0.total == Self.keys.count && $0.outcome == .copied })
            #expect(progress.last?.fractionCompleted == 1)
            #expect(progress[11].bar(width: 10) == "[#####-----]  50% 12/24")
            #expect(progress.last?.bar(width: 4) == "[####] 100% 24/24")

            let again = try await StoreMigration(from: source, to: target).run()
            #expect(again.copied.isEmpty)
            #expect(Set(again.alreadyPresent) == Set(Self.keys))
            #expect(try await TestFiles.allKeys(of: target).count == Self.keys.count)
        }
    }

    /// A move between two handles on one store (the same SQLite file opened twice, the same
    /// directory) found every record already in the target, then removed it from the source,
    /// which was the target: every record was gone. Now it stops before touching any.
    @Test(arguments: ["sqlite", "files"])
    func aMoveWithinOneStoreIsRefusedAndKeepsEveryRecord(kind: String) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let open = { () async throws -> any CredentialStore in
                kind == "sqlite"
                    ? try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("one.sqlite").path)
                    : try FileCredentialStore(directory: folder.appendingPathComponent("one"))
            }
            let (source, target) = (try await open(), try await open())
            for (index, key) in Self.keys.enumerated() { try await source.put(TestFiles.envelope(index), for: key) }
            let error = await #expect(throws: MigrationError.self) { try await StoreMigration(from: source, to: target, mode: .move).run() }
            #expect(error?.code == .sameStore)
            #expect(try await TestFiles.allKeys(of: source).count == Self.keys.count, "records were lost")
            #expect(try await source.namespaces().sorted() == ["api.example.com", "github"], "the probe record was left behind")
            // Two stores that are really two still move.
            let other = try FileCredentialStore(directory: folder.appendingPathComponent("other"))
            let moved = try await StoreMigration(from: source, to: other, mode: .move).run()
            #expect(moved.removedFromSource.count == Self.keys.count)
            for store in [source, target] { if let sqlite = store as? SQLiteCredentialStore { try await sqlite.close() } }
        }
    }

    @Test func dryRunReportsWhatWouldHappenAndWritesNothing() async throws {
        try await Self.withStores { source, target, originals in
            let present = Self.keys[0], different = Self.keys[1]
            try await target.put(try #require(originals[present]), for: present)
            let other = TestFiles.envelope(999)
            try await target.put(other, for: different)

            let report = try await StoreMigration(from: source, to: target, mode: .move).dryRun()
            #expect(report.isDryRun)
            #expect(report.alreadyPresent == [present])
            #expect(report.conflicts == [different])
            #expect(Set(report.copied) == Set(Self.keys).subtracting([present, different]))
            #expect(Set(report.removedFromSource) == Set(Self.keys).subtracting([different]))
            #expect(try await TestFiles.allKeys(of: target).count == 2)
            #expect(try await target.get(different) == other)
            for (key, original) in originals { #expect(try await source.get(key) == original) }
        }
    }

    @Test func moveRemovesASourceRecordOnlyAfterItsCopyIsVerified() async throws {
        try await Self.withStores { files, sqlite, originals in
            let log = OperationLog()
            let failing = Self.keys[3], garbled = Self.keys[7]
            let source = ObservedStore(files, name: "source", log: log)
            let target = ObservedStore(sqlite, name: "target", log: log, failingWrites: [failing], garbledWrites: [garbled])

            let report = try await StoreMigration(from: source, to: target, mode: .move).run()
            #expect(Set(report.skipped.map(\.key)) == [failing, garbled])
            #expect(report.skipped.first { $0.key == failing }?.stage == .writingTarget)
            #expect(report.skipped.first { $0.key == garbled }?.stage == .verifying)
            #expect(Set(report.removedFromSource) == Set(Self.keys).subtracting([failing, garbled]))
            // The two records whose copy failed are still in the source, unchanged.
            #expect(try await files.get(failing) == originals[failing])
            #expect(try await files.get(garbled) == originals[garbled])
            #expect(try await TestFiles.allKeys(of: files).sorted { $0.description < $1.description } == [failing, garbled].sorted { $0.description < $1.description })

            // Every source removal came after a write and a read-back of that record in the target.
            let entries = log.all
            for key in report.removedFromSource {
                let put = try #require(entries.firstIndex(of: "target.put \(key)"))
                let verified = try #require(entries.lastIndex(of: "target.get \(key) found"))
                let removed = try #require(entries.firstIndex(of: "source.delete \(key)"))
                #expect(put < verified && verified < removed, "\(key)")
                #expect(try await sqlite.get(key) == originals[key])
            }
            #expect(!entries.contains("source.delete \(failing)") && !entries.contains("source.delete \(garbled)"))
        }
    }

    /// A renewal (another process sharing the source) writes a record between the move's
    /// check of the source and its removal: the new record stays. It was deleted, and the target
    /// held the refresh token the server had retired.
    @Test func aMoveKeepsASourceRecordWrittenBeforeItsRemoval() async throws {
        try await Self.withStores { files, target, originals in
            let key = Self.keys[0], renewed = TestFiles.envelope(99)
            // Reads of the key: the copy's, then the removal's check.
            let source = InterposedStore.racing(files, writing: renewed, at: key, onRead: 2)
            let report = try await StoreMigration(from: source, to: target, mode: .move).run()
            #expect(try await files.get(key) == renewed)
            #expect(!report.removedFromSource.contains(key))
            #expect(report.skipped.map(\.key) == [key])
            #expect(try await target.get(key) == originals[key])
        }
    }

    /// The app writes a record to the target after the migration found none there: the app's
    /// record stays, and so does the source's. It was overwritten by the older copy.
    @Test func aCopyKeepsATargetRecordWrittenWhileItRan() async throws {
        try await Self.withStores { files, sqlite, originals in
            let key = Self.keys[1], appWritten = TestFiles.envelope(77)
            let target = InterposedStore.racing(sqlite, writing: appWritten, at: key, onRead: 1)
            let report = try await StoreMigration(from: files, to: target, mode: .move).run()
            #expect(try await sqlite.get(key) == appWritten)
            #expect(try await files.get(key) == originals[key])
            #expect(!report.removedFromSource.contains(key))
            #expect(report.skipped.map(\.key) == [key])
        }
    }

    @Test func corruptSourceRecordIsReportedSkippedAndStaysInTheSource() async throws {
        try await Self.withStores { source, target, originals in
            let damaged = Self.keys[5]
            let path = source.engine.layout.recordPath(damaged)
            let garbage = Data("this is not a record \u{0}\u{1}\u{2}".utf8)
            try garbage.write(to: URL(fileURLWithPath: path))

            for run in 1...2 {
                let report = try await StoreMigration(from: source, to: target, mode: .move).run()
                let skipped = try #require(report.skipped.first, "run \(run)")
                #expect(report.skipped.count == 1)
                #expect(skipped.key == damaged)
                #expect(skipped.stage == .readingSource)
                #expect((skipped.error as? CredentialStoreError)?.code == .corrupted)
                #expect(skipped.reason.contains("corrupted"))
                // Left exactly where it was, byte for byte, not moved aside; nothing in the target.
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
                let folder = (path as NSString).deletingLastPathComponent
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains(".corrupt-") })
                #expect(try await target.get(damaged) == nil)
                #expect(try await TestFiles.allKeys(of: source) == [damaged])
            }
            for (key, original) in originals where key != damaged { #expect(try await target.get(key) == original) }
        }
    }

    @Test func conflictPoliciesDecideAboutADifferentTargetRecord() async throws {
        try await Self.withStores { source, target, originals in
            let key = Self.keys[0]
            let original = try #require(originals[key])
            var older = TestFiles.envelope(500)
            older.updatedAt = original.updatedAt.addingTimeInterval(-60)
            try await target.put(older, for: key)

            let kept = try await StoreMigration(from: source, to: target, mode: .move, namespaces: [key.namespace]).run()
            #expect(kept.conflicts == [key])
            #expect(!kept.isComplete)
            #expect(try await target.get(key) == older)
            #expect(try await source.get(key) == original)  // a move keeps a record it did not copy

            let newer = try await StoreMigration(from: source, to: target, mode: .move, conflictPolicy: .newerWins).run()
            #expect(newer.copied.contains(key))
            #expect(newer.conflicts.isEmpty)
            #expect(try await target.get(key) == original)
            #expect(try await source.get(key) == nil)
            #expect(try await TestFiles.allKeys(of: source).isEmpty)
        }
    }

    @Test func sealedRecordsStaySealedAndOpenInTheTarget() async throws {
        try await Self.withStores { source, target, _ in
            let cipher = try AESGCMCipher(key: TestFiles.cipherKey)
            let account = AccountKey(namespace: "sealed", account: "zoe")
            let tokens = BearerTokenSet(accessToken: "sealed-at", refreshToken: "sealed-rt")
            try await CredentialVault(store: source, cipher: cipher).save(tokens, for: account)

            let report = try await StoreMigration(from: source, to: target, mode: .move, namespaces: ["sealed"]).run()
            #expect(report.copied == [account.item("credential")])
            let stored = try #require(try await target.get(account.item("credential")))
            #expect(!String(decoding: stored.payload, as: UTF8.self).contains("sealed-at"))
            #expect(try await CredentialVault(store: target, cipher: cipher).load(BearerTokenSet.self, for: account) == tokens)
        }
    }

    @Test func sqliteToFileVerifiesTimesKeptAsOtherFloatingPointSeconds() async throws {
        try await Self.withStores { files, sqlite, _ in
            let key = CredentialKey(namespace: "times", account: "x", item: "credential")
            let odd = Envelope(kind: "bearer", payload: Data("p".utf8), updatedAt: Date(timeIntervalSinceReferenceDate: 700_000_000.123_456_789),
                               expiresAt: Date(timeIntervalSinceReferenceDate: 800_000_000.987_654_321))
            try await sqlite.put(odd, for: key)
            let report = try await StoreMigration(from: sqlite, to: files, mode: .move).run()
            #expect(report.copied == [key])
            #expect(report.isComplete)
            let copy = try #require(try await files.get(key))
            #expect(copy.payload == odd.payload)
            #expect(abs(copy.updatedAt.timeIntervalSince(odd.updatedAt)) < 1e-6)
            #expect(try await sqlite.get(key) == nil)
        }
    }
}
