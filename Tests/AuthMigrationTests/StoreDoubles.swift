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

/// A store that another writer (the app, a renewal in another process) writes while it is
/// being read: on the `nth` read of `key` the base store gets `written` first, and the read
/// returns what the base held before. Every write, conditional ones included, goes to the base,
/// whose `replace` is atomic.
final class RacingStore: CredentialStore {
    let base: any CredentialStore
    let key: CredentialKey
    let nth: Int
    let written: Envelope
    private let reads = Mutex(0)

    init(_ base: any CredentialStore, writing written: Envelope, at key: CredentialKey, onRead nth: Int) {
        self.base = base
        self.key = key
        self.nth = nth
        self.written = written
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        let envelope = try await base.get(key)
        guard key == self.key, reads.withLock({ $0 += 1; return $0 }) == nth else { return envelope }
        try await base.put(written, for: key)
        return envelope
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await base.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await base.delete(key) }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await base.replace(key, ifCurrent: expected, with: envelope)
    }
    func items(of account: AccountKey) async throws -> [String] { try await base.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await base.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await base.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await base.deleteAccount(account) }
    func deleteAll() async throws { try await base.deleteAll() }
}

/// A store whose `nth` read fails as a locked store does (`.unavailable`); every other call goes
/// to the base.
final class FailingNthReadStore: CredentialStore {
    let base: any CredentialStore
    let nth: Int
    private let reads = Mutex(0)

    init(_ base: any CredentialStore, onRead nth: Int) {
        self.base = base
        self.nth = nth
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        guard reads.withLock({ $0 += 1; return $0 }) != nth else { throw CredentialStoreError.unavailable("the store is locked") }
        return try await base.get(key)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await base.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await base.delete(key) }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await base.replace(key, ifCurrent: expected, with: envelope)
    }
    func items(of account: AccountKey) async throws -> [String] { try await base.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await base.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await base.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await base.deleteAccount(account) }
    func deleteAll() async throws { try await base.deleteAll() }
}

/// A store whose conditional writes never succeed, as if another writer changed the record
/// each time; every other call goes to the base.
final class RefusingReplaceStore: CredentialStore {
    let base: any CredentialStore

    init(_ base: any CredentialStore) { self.base = base }

    func get(_ key: CredentialKey) async throws -> Envelope? { try await base.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await base.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await base.delete(key) }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool { false }
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
