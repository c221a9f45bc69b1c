// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// Real files for tests: a fresh folder that is removed afterwards.
enum TestFiles {
    /// Runs `body` with a new, empty folder under the system's temporary directory.
    ///
    /// With `preferringMemory`, the folder is made in `/dev/shm` (a memory file system on Linux)
    /// when that exists: there `fsync` costs nothing. Tests of what survives a *killed process*
    /// may use it, since a killed process loses nothing the kernel already holds, synced or not;
    /// what a power loss would do is not what they test.
    static func withTemporaryFolder<T>(preferringMemory: Bool = false, _ body: (URL) async throws -> T) async throws -> T {
        var parent = FileManager.default.temporaryDirectory
        var isDirectory: ObjCBool = false
        if preferringMemory, FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
           FileManager.default.isWritableFile(atPath: "/dev/shm") {
            parent = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        }
        let folder = parent
            .appendingPathComponent("AuthMigrationTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// Every key of a store, in listing order.
    static func allKeys(of store: any CredentialStore) async throws -> [CredentialKey] {
        var keys: [CredentialKey] = []
        for namespace in try await store.namespaces() {
            for account in try await store.accounts(in: namespace) {
                let owner = AccountKey(namespace: namespace, account: account)
                for item in try await store.items(of: owner) { keys.append(owner.item(item)) }
            }
        }
        return keys
    }

    /// A record whose payload and times depend on `index` (times on a 1/1024 s grid, which both
    /// stores keep exactly).
    static func envelope(_ index: Int, kind: String = "bearer") -> Envelope {
        let payload = Data("record-\(index)-".utf8) + Data((0..<48).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
        let updated = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) / 1024)
        return Envelope(kind: kind, payload: payload, updatedAt: updated,
                        expiresAt: index.isMultiple(of: 2) ? updated.addingTimeInterval(3600) : nil)
    }

    /// A fixed 32-byte test key.
    static let cipherKey = Data((0..<32).map { UInt8($0) })
}
