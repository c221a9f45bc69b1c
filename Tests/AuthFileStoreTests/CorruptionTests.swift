// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthFileStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct CorruptionTests {
    static let alice = CredentialKey(namespace: "svc", account: "alice", item: "credential")
    static let bob = CredentialKey(namespace: "svc", account: "bob", item: "credential")

    /// A store holding one record for alice and one for bob.
    static func withTwoRecords(options: FileCredentialStore.Options = .init(), _ body: (FileCredentialStore, String) async throws -> Void) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"), options: options)
            try await store.put(TestFiles.envelope("alice-secret"), for: alice)
            try await store.put(TestFiles.envelope("bob-secret"), for: bob)
            try await body(store, store.engine.layout.recordPath(alice))
        }
    }

    /// The quarantined copies beside `path`.
    static func quarantined(beside path: String) throws -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix(name + ".corrupt-") }
            .map { folder + "/" + $0 }
    }

    @Test func garbledFileIsReportedQuarantinedAndReplaceable() async throws {
        try await Self.withTwoRecords(options: .init(now: { Date(timeIntervalSince1970: 1_763_770_000) })) { store, path in
            let garbled = Data("this is not a record \u{0}\u{1}\u{2}".utf8)
            try garbled.write(to: URL(fileURLWithPath: path))

            let error = await #expect(throws: CredentialStoreError.self) { try await store.get(Self.alice) }
            #expect(error?.code == .corrupted)
            #expect(error?.path == path)
            #expect(error?.key == Self.alice)
            #expect(error?.description.contains((path as NSString).lastPathComponent) == true)

            let copies = try Self.quarantined(beside: path)
            #expect(copies.map { ($0 as NSString).lastPathComponent } == [(path as NSString).lastPathComponent + ".corrupt-20251122T000640Z"])
            #expect(try copies.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == [garbled])

            #expect(try await store.get(Self.bob)?.payload == Data("bob-secret".utf8))
            #expect(try await store.get(Self.alice) == nil)
            #expect(try await store.items(of: Self.alice.accountKey) == [])
            #expect(try await store.accounts(in: "svc") == ["bob"])

            try await store.put(TestFiles.envelope("alice-new"), for: Self.alice)
            #expect(try await store.get(Self.alice)?.payload == Data("alice-new".utf8))
            #expect(try await store.accounts(in: "svc") == ["alice", "bob"])
            #expect(try Self.quarantined(beside: path).count == 1)  // the evidence stays
        }
    }

    @Test func tornWritesAndFlippedBitsAreDetected() async throws {
        try await Self.withTwoRecords { store, path in
            let valid = try Data(contentsOf: URL(fileURLWithPath: path))
            var flipped = valid
            flipped[valid.count - 3] ^= 0x01
            let damaged: [Data] = [Data(), valid.prefix(10), valid.prefix(valid.count / 2), valid + Data([0]), flipped]
            for (index, bytes) in damaged.enumerated() {
                try bytes.write(to: URL(fileURLWithPath: path))
                let error = await #expect(throws: CredentialStoreError.self, "damage #\(index)") { try await store.get(Self.alice) }
                #expect(error?.code == .corrupted)
                #expect(error.map { !String(describing: $0).contains("alice-secret") } == true)
            }
            #expect(try Self.quarantined(beside: path).count == damaged.count)
            #expect(try await store.get(Self.bob) != nil)
        }
    }

    @Test func recordOfAnotherKeyIsNotReturned() async throws {
        try await Self.withTwoRecords { store, path in
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: store.engine.layout.recordPath(Self.bob), toPath: path)
            let error = await #expect(throws: CredentialStoreError.self) { try await store.get(Self.alice) }
            #expect(error?.code == .corrupted)
        }
    }

    @Test func withoutQuarantineTheFileStaysInPlace() async throws {
        try await Self.withTwoRecords(options: .init(quarantinesCorruptedRecords: false)) { store, path in
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
            let error = await #expect(throws: CredentialStoreError.self) { try await store.get(Self.alice) }
            #expect(error?.code == .corrupted)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("garbage".utf8))
            #expect(try Self.quarantined(beside: path).isEmpty)
        }
    }

    @Test func aNewerContainerVersionIsIncompatibleNotCorrupted() async throws {
        try await Self.withTwoRecords { store, path in
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes[5] = 9  // container version 9
            try bytes.write(to: URL(fileURLWithPath: path))
            let error = await #expect(throws: CredentialStoreError.self) { try await store.get(Self.alice) }
            #expect(error?.code == .incompatibleVersion)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            #expect(try Self.quarantined(beside: path).isEmpty)
        }
    }

    @Test func aFIFOInPlaceOfARecordIsRefusedNotWaitedOn() async throws {
        try await Self.withTwoRecords { store, path in
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o600) == 0)
            let error = await #expect(throws: CredentialStoreError.self) { try await store.get(Self.alice) }
            #expect(error?.path == path)
            #expect((error?.underlying as? StoreDirectoryPolicy.Refusal)?.code == .notARegularFile)
            #expect(FileManager.default.fileExists(atPath: path))  // left in place, not quarantined
            #expect(try await store.get(Self.bob) != nil)
        }
    }

    @Test func checksumIsStandardCRC32() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
