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

/// A real store with a test's hooks in front of its reads and conditional writes; every other
/// call goes to the base as it is.
final class InterposedStore: CredentialStore {
    typealias Read = @Sendable (_ key: CredentialKey, _ number: Int, _ base: any CredentialStore) async throws -> Envelope?
    typealias Replace = @Sendable (_ key: CredentialKey, _ expected: Envelope?, _ envelope: Envelope?, _ base: any CredentialStore) async throws -> Bool

    let base: any CredentialStore
    private let read: Read
    private let conditionalWrite: Replace
    private let reads = Mutex(0)

    /// - Parameters:
    ///   - read: Answers each read, given its 1-based number among all reads; by default the base's.
    ///   - replace: Answers each conditional write; by default the base's.
    init(_ base: any CredentialStore, read: @escaping Read = { key, _, base in try await base.get(key) },
         replace: @escaping Replace = { key, expected, envelope, base in try await base.replace(key, ifCurrent: expected, with: envelope) }) {
        self.base = base
        self.read = read
        self.conditionalWrite = replace
    }

    /// A store that another writer (the app, a renewal in another process) writes while it is
    /// being read: on the `nth` read of `key` the base store gets `written` first, and the read
    /// returns what the base held before. Every write, conditional ones included, goes to the
    /// base, whose `replace` is atomic.
    static func racing(_ base: any CredentialStore, writing written: Envelope, at key: CredentialKey, onRead nth: Int) -> InterposedStore {
        let readsOfKey = Mutex(0)
        return InterposedStore(base, read: { read, _, base in
            let envelope = try await base.get(read)
            guard read == key, readsOfKey.withLock({ $0 += 1; return $0 }) == nth else { return envelope }
            try await base.put(written, for: key)
            return envelope
        })
    }

    /// A store whose `nth` read fails as a locked store does (`.unavailable`).
    static func failing(_ base: any CredentialStore, onRead nth: Int) -> InterposedStore {
        InterposedStore(base, read: { key, number, base in
            guard number != nth else { throw CredentialStoreError.unavailable("the store is locked") }
            return try await base.get(key)
        })
    }

    /// A store whose conditional writes never succeed, as if another writer changed the record
    /// each time.
    static func refusingConditionalWrites(_ base: any CredentialStore) -> InterposedStore {
        InterposedStore(base, replace: { _, _, _, _ in false })
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        try await read(key, reads.withLock { $0 += 1; return $0 }, base)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await base.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await base.delete(key) }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await conditionalWrite(key, expected, envelope, base)
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
