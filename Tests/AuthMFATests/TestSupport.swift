// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Synchronization

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { current.withLock { $0 = date } }
}

/// A minimal credential store on real files: one JSON-encoded envelope per record in a
/// directory, so that a test can "restart" by opening a new store over the same directory.
/// Test-only; AuthFileStore is the real one.
struct DirectoryTestStore: CredentialStore {
    let directory: URL

    static func temporary() throws -> DirectoryTestStore {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("authmfa-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return DirectoryTestStore(directory: url)
    }

    private func file(_ key: CredentialKey) -> URL {
        let name = [key.namespace, key.account, key.item].map { Data($0.utf8).base64EncodedString().replacingOccurrences(of: "/", with: "_") }.joined(separator: ".")
        return directory.appendingPathComponent(name)
    }

    private func allKeys() throws -> [CredentialKey] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).compactMap { name in
            let parts = name.split(separator: ".").map { String($0).replacingOccurrences(of: "_", with: "/") }
            guard parts.count == 3 else { return nil }
            let decoded = parts.compactMap { Data(base64Encoded: $0).flatMap { String(data: $0, encoding: .utf8) } }
            guard decoded.count == 3 else { return nil }
            return CredentialKey(namespace: decoded[0], account: decoded[1], item: decoded[2])
        }
    }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        guard let data = FileManager.default.contents(atPath: file(key).path) else { return nil }
        return try JSONDecoder().decode(Envelope.self, from: data)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try JSONEncoder().encode(envelope).write(to: file(key), options: .atomic)
    }
    func delete(_ key: CredentialKey) async throws {
        try? FileManager.default.removeItem(at: file(key))
    }
    func items(of account: AccountKey) async throws -> [String] {
        try allKeys().filter { $0.accountKey == account }.map(\.item).sorted()
    }
    func accounts(in namespace: String) async throws -> [String] {
        Set(try allKeys().filter { $0.namespace == namespace }.map(\.account)).sorted()
    }
    func namespaces() async throws -> [String] {
        Set(try allKeys().map(\.namespace)).sorted()
    }
    func deleteAccount(_ account: AccountKey) async throws {
        for key in try allKeys() where key.accountKey == account { try await delete(key) }
    }
    func deleteAll() async throws {
        for key in try allKeys() { try await delete(key) }
    }
    func removeDirectory() { try? FileManager.default.removeItem(at: directory) }
}

/// Holds callers until `parties` of them have arrived, then lets them all go on together, for
/// `rounds` rounds; after the last round every caller goes on at once. A caller that will not
/// arrive (it was answered without reaching the store) withdraws, and the round then waits for
/// one party fewer. So a test can force every caller to read before any of them writes, without
/// sleeping.
final class Barrier: Sendable {
    private struct State {
        var parties: Int
        var roundsLeft: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
        var withdrawn = 0

        /// The callers to release when the round is complete, starting the next one.
        mutating func completeRound() -> [CheckedContinuation<Void, Never>] {
            guard roundsLeft > 0, waiting.count + withdrawn >= parties else { return [] }
            let released = waiting
            waiting = []
            withdrawn = 0
            roundsLeft -= 1
            return released
        }
    }

    private let state: Mutex<State>

    init(parties: Int, rounds: Int = 1) {
        state = Mutex(State(parties: parties, roundsLeft: rounds))
    }

    /// Waits until the round is complete (at once after the last round).
    func arrive() async {
        guard state.withLock({ $0.roundsLeft > 0 }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released: [CheckedContinuation<Void, Never>]? = state.withLock { state in
                guard state.roundsLeft > 0 else { return nil }
                state.waiting.append(continuation)
                return state.completeRound()
            }
            guard let released else { return continuation.resume() }
            for waiter in released { waiter.resume() }
        }
    }

    /// Counts a caller that will not arrive in this round.
    func withdraw() {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.roundsLeft > 0 else { return [] }
            state.withdrawn += 1
            return state.completeRound()
        }
        for waiter in released { waiter.resume() }
    }
}

/// A store whose reads of one item wait at a ``Barrier`` once they have read (reads of other
/// items, and every write, go straight to `inner`): the callers of a round all read the record
/// as it was before any of them goes on to write. Its `replace` is `inner`'s own, atomic one.
struct GatedStore: CredentialStore {
    let inner: InMemoryCredentialStore
    /// The item whose reads wait.
    let item: String
    let barrier: Barrier

    func get(_ key: CredentialKey) async throws -> Envelope? {
        let envelope = try await inner.get(key)
        if key.item == item { await barrier.arrive() }
        return envelope
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
    func deleteAll() async throws { try await inner.deleteAll() }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await inner.replace(key, ifCurrent: expected, with: envelope)
    }
}

/// A store where another writer always gets in first: every conditional write finds the record
/// changed and writes nothing.
struct AlwaysConflictingStore: CredentialStore {
    let inner: InMemoryCredentialStore

    func get(_ key: CredentialKey) async throws -> Envelope? { try await inner.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
    func deleteAll() async throws { try await inner.deleteAll() }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool { false }
}
