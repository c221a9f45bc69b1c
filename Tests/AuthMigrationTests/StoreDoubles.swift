// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthMigration
import Foundation
import Synchronization

/// A log of store operations shared by several ``ObservedStore``s, in the order they happened.
final class OperationLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    func index(of entry: String) -> Int? { all.firstIndex(of: entry) }
    func lastIndex(of entry: String) -> Int? { all.lastIndex(of: entry) }
}

/// A real store with its writes logged, and with faults on demand for some keys: a write that
/// fails, or a write that stores other bytes than it was given (a lying disk).
final class ObservedStore: CredentialStore {
    let base: any CredentialStore
    let name: String
    let log: OperationLog
    let failingWrites: Set<CredentialKey>
    let garbledWrites: Set<CredentialKey>

    init(_ base: any CredentialStore, name: String, log: OperationLog, failingWrites: Set<CredentialKey> = [], garbledWrites: Set<CredentialKey> = []) {
        self.base = base
        self.name = name
        self.log = log
        self.failingWrites = failingWrites
        self.garbledWrites = garbledWrites
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        let envelope = try await base.get(key)
        log.append("\(name).get \(key) \(envelope == nil ? "nil" : "found")")
        return envelope
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        if failingWrites.contains(key) { throw CredentialStoreError(code: .io, message: "disk full (simulated)", key: key) }
        var stored = envelope
        if garbledWrites.contains(key) { stored.payload = Data(stored.payload.reversed()) + Data([0]) }
        try await base.put(stored, for: key)
        log.append("\(name).put \(key)")
    }
    func delete(_ key: CredentialKey) async throws {
        try await base.delete(key)
        log.append("\(name).delete \(key)")
    }
    func items(of account: AccountKey) async throws -> [String] { try await base.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await base.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await base.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await base.deleteAccount(account) }
    func deleteAll() async throws { try await base.deleteAll() }
}

/// The progress values a migration reported, in order.
final class ProgressLog: Sendable {
    private let entries = Mutex<[MigrationProgress]>([])
    func append(_ progress: MigrationProgress) { entries.withLock { $0.append(progress) } }
    var all: [MigrationProgress] { entries.withLock { $0 } }
}
