// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

/// A suite of checks that any ``/AuthCore/CredentialStore`` runs against itself.
///
/// Each check starts from an empty store returned by the factory. A failed check throws
/// ``ConformanceFailure`` naming the check and what was observed, so a test only has to call
/// ``run(makeStore:)`` and let the error fail it:
///
/// ```swift
/// @Test func conforms() async throws {
///     let checks = try await CredentialStoreConformance.run { try MyStore(at: temporaryURL()) }
///     #expect(checks.count == CredentialStoreConformance.checkNames.count)
/// }
/// ```
public enum CredentialStoreConformance {
    /// The names of the checks, in the order they run.
    public static let checkNames = checks.map(\.name)

    /// Runs every check, each against a fresh store.
    /// - Returns: The names of the checks that passed (all of them, or it throws).
    /// - Throws: ``ConformanceFailure`` for the first failed check, or the store's own error.
    @discardableResult
    public nonisolated(nonsending) static func run(makeStore: () async throws -> any CredentialStore) async throws -> [String] {
        var passed: [String] = []
        for check in checks {
            let store = try await makeStore()
            try await check.body(store)
            passed.append(check.name)
        }
        return passed
    }

    struct Check: Sendable {
        let name: String
        let body: @Sendable (any CredentialStore) async throws -> Void
    }

    static func envelope(_ text: String, kind: String = "test", version: Int = 1, at seconds: TimeInterval = 1_700_000_000, expires: Date? = nil) -> Envelope {
        Envelope(formatVersion: version, kind: kind, payload: Data(text.utf8), updatedAt: Date(timeIntervalSince1970: seconds), expiresAt: expires)
    }

    static let checks: [Check] = [
        Check(name: "replace writes only over the expected record") { store in
            let key = CredentialKey(namespace: "svc", account: "alice", item: "credential")
            let first = envelope("first")
            try expect(try await store.replace(key, ifCurrent: nil, with: first), "replace over no record (expected none) failed")
            let stored = try await store.get(key)
            try expect(!(try await store.replace(key, ifCurrent: nil, with: envelope("other"))), "replace expecting no record overwrote one")
            try expect(!(try await store.replace(key, ifCurrent: envelope("stale", at: 1_600_000_000), with: nil)), "replace expecting another record removed it")
            try expect(!(try await store.replace(key, ifCurrent: nil, with: nil)), "replace with nil expecting no record removed one")
            try expect(try await store.get(key)?.payload == first.payload, "a refused replace changed the record")
            try expect(try await store.replace(key, ifCurrent: stored, with: envelope("second", at: 1_700_000_100)), "replace expecting the stored record failed")
            let second = try await store.get(key)
            try expect(second?.payload == Data("second".utf8), "replace did not write")
            try expect(try await store.replace(key, ifCurrent: second, with: nil), "replace with nil (expecting the stored record) failed")
            try expect(try await store.get(key) == nil, "replace with nil did not remove the record")
            try expect(try await store.replace(key, ifCurrent: nil, with: nil), "replace with nil expecting no record failed where there was none")
        },
        Check(name: "of concurrent replaces from one record, one wins") { store in
            let key = CredentialKey(namespace: "svc", account: "race", item: "credential")
            try await store.put(envelope("base"), for: key)
            let base = try await store.get(key)
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<8 { group.addTask { try await store.replace(key, ifCurrent: base, with: envelope("renewed-\(n)", at: 1_700_000_000 + Double(n + 1))) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            try expect(wins == 1, "\(wins) of 8 replaces from the same record succeeded")
        },
        // How a renewal takes a lease that no one holds: two takers that both saw no record must
        // not both believe they hold it.
        Check(name: "of concurrent replaces from no record, exactly one wins") { store in
            let key = CredentialKey(namespace: "svc", account: "race", item: "lease")
            let winners = try await withThrowingTaskGroup(of: Int?.self) { group in
                for n in 0..<16 {
                    group.addTask { try await store.replace(key, ifCurrent: nil, with: envelope("taken-\(n)", at: 1_700_000_000 + Double(n + 1))) ? n : nil }
                }
                return try await group.reduce(into: [Int]()) { winners, winner in if let winner { winners.append(winner) } }
            }
            try expect(winners.count == 1, "\(winners.count) of 16 replaces from no record succeeded")
            let stored = try await store.get(key)
            try expect(stored?.payload == Data("taken-\(winners[0])".utf8), "the stored record is not the one of the replace that succeeded")
        },
        Check(name: "missing record is nil") { store in
            try expect(try await store.get(CredentialKey(namespace: "n", account: "a", item: "i")) == nil, "get of a missing key returned a record")
        },
        Check(name: "put then get returns every field") { store in
            let key = CredentialKey(namespace: "svc", account: "alice", item: "credential")
            let value = envelope("payload-1", kind: "bearer", version: 3, expires: Date(timeIntervalSince1970: 1_800_000_000))
            try await store.put(value, for: key)
            let read = try await store.get(key)
            try expect(read?.payload == value.payload, "payload differs after put/get")
            try expect(read?.kind == "bearer", "kind differs after put/get")
            try expect(read?.formatVersion == 3, "format version differs after put/get")
            try expect(read?.expiresAt == value.expiresAt, "expiresAt differs after put/get: \(String(describing: read?.expiresAt))")
            try expect(read.map { abs($0.updatedAt.timeIntervalSince(value.updatedAt)) < 0.001 } == true, "updatedAt differs after put/get")
        },
        Check(name: "nil expiry round-trips") { store in
            let key = CredentialKey(namespace: "svc", account: "alice", item: "device-id")
            try await store.put(envelope("x"), for: key)
            try expect(try await store.get(key)?.expiresAt == nil, "a nil expiresAt came back non-nil")
        },
        Check(name: "put replaces") { store in
            let key = CredentialKey(namespace: "svc", account: "alice", item: "credential")
            try await store.put(envelope("old"), for: key)
            try await store.put(envelope("new", at: 1_700_000_100), for: key)
            try expect(try await store.get(key)?.payload == Data("new".utf8), "second put did not replace the first")
            try expect(try await store.items(of: key.accountKey) == ["credential"], "replacing created a second item")
        },
        Check(name: "binary payload round-trips") { store in
            let key = CredentialKey(namespace: "svc", account: "bin", item: "blob")
            let bytes = Data((0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) })
            try await store.put(Envelope(kind: "blob", payload: bytes, updatedAt: Date(timeIntervalSince1970: 0)), for: key)
            try expect(try await store.get(key)?.payload == bytes, "binary payload was altered")
        },
        Check(name: "keys are isolated by namespace, account and item") { store in
            var written: [CredentialKey: String] = [:]
            for n in ["n1", "n2", "n3"] {
                for a in ["alice", "bob", "carol"] {
                    for i in ["credential", "device-id"] {
                        let key = CredentialKey(namespace: n, account: a, item: i)
                        written[key] = "\(n)|\(a)|\(i)"
                        try await store.put(envelope("\(n)|\(a)|\(i)"), for: key)
                    }
                }
            }
            for (key, text) in written {
                try expect(try await store.get(key)?.payload == Data(text.utf8), "record \(key) read back another record's payload")
            }
        },
        Check(name: "listing is sorted and complete") { store in
            for (n, a, i) in [("b", "zed", "x"), ("a", "amy", "y"), ("b", "amy", "x"), ("b", "amy", "w")] {
                try await store.put(envelope("v"), for: CredentialKey(namespace: n, account: a, item: i))
            }
            try expect(try await store.namespaces() == ["a", "b"], "namespaces() was not [a, b]")
            try expect(try await store.accounts(in: "b") == ["amy", "zed"], "accounts(in: b) was not [amy, zed]")
            try expect(try await store.items(of: AccountKey(namespace: "b", account: "amy")) == ["w", "x"], "items(of: b/amy) was not [w, x]")
            try expect(try await store.accounts(in: "nothing").isEmpty, "an unknown namespace listed accounts")
        },
        Check(name: "delete removes one record only") { store in
            let a = CredentialKey(namespace: "n", account: "a", item: "one")
            let b = CredentialKey(namespace: "n", account: "a", item: "two")
            try await store.put(envelope("1"), for: a)
            try await store.put(envelope("2"), for: b)
            try await store.delete(a)
            try await store.delete(CredentialKey(namespace: "n", account: "a", item: "never-written"))
            try expect(try await store.get(a) == nil, "deleted record still readable")
            try expect(try await store.get(b) != nil, "delete removed a sibling record")
        },
        Check(name: "deleteAccount removes that account only") { store in
            try await store.put(envelope("1"), for: CredentialKey(namespace: "n", account: "gone", item: "i"))
            try await store.put(envelope("2"), for: CredentialKey(namespace: "n", account: "gone", item: "j"))
            try await store.put(envelope("3"), for: CredentialKey(namespace: "n", account: "kept", item: "i"))
            try await store.put(envelope("4"), for: CredentialKey(namespace: "m", account: "gone", item: "i"))
            try await store.deleteAccount(AccountKey(namespace: "n", account: "gone"))
            try expect(try await store.accounts(in: "n") == ["kept"], "deleteAccount left records or removed another account")
            try expect(try await store.get(CredentialKey(namespace: "m", account: "gone", item: "i")) != nil, "deleteAccount crossed namespaces")
        },
        Check(name: "deleteAll empties the store") { store in
            try await store.put(envelope("1"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            try await store.put(envelope("2"), for: CredentialKey(namespace: "m", account: "b", item: "i"))
            try await store.deleteAll()
            try expect(try await store.namespaces().isEmpty, "deleteAll left namespaces")
        },
        Check(name: "unusual names round-trip") { store in
            let names = ["", " ", "../../etc/passwd", "/", "a/b", "名前", "Alice", "alice", String(repeating: "x", count: 300), "%2F", "a\u{0}b", "e\u{301}"]
            for (index, name) in names.enumerated() {
                try await store.put(envelope("v\(index)"), for: CredentialKey(namespace: "odd", account: name, item: "credential"))
            }
            for (index, name) in names.enumerated() {
                let read = try await store.get(CredentialKey(namespace: "odd", account: name, item: "credential"))
                try expect(read?.payload == Data("v\(index)".utf8), "account name #\(index) did not round-trip to its own record")
            }
            try expect(Set(try await store.accounts(in: "odd")).count == names.count, "listing did not return every unusual account name")
        },
        Check(name: "concurrent puts to different keys all land") { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask { try await store.put(envelope("\(index)"), for: CredentialKey(namespace: "c", account: "user\(index)", item: "credential")) }
                }
                try await group.waitForAll()
            }
            try expect(try await store.accounts(in: "c").count == 64, "some concurrent puts were lost")
        },
        Check(name: "refresh lock excludes concurrent holders") { store in
            guard let locking = store as? any RefreshLocking else { return }
            let probe = OverlapProbe()
            let account = AccountKey(namespace: "lock", account: "alice")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await locking.withRefreshLock(for: account) {
                            await probe.enter()
                            try await Task.sleep(for: .milliseconds(2))
                            await probe.leave()
                        }
                    }
                }
                try await group.waitForAll()
            }
            let maximum = await probe.maximum
            let entries = await probe.entries
            try expect(maximum == 1, "refresh lock let \(maximum) holders in at once")
            try expect(entries == 8, "not every lock holder ran")
        },
    ]

    /// Checks that a caller of this process waiting for `store`'s refresh lock, which another
    /// caller of this process holds, gives up with `CredentialStoreError.unavailable` at the
    /// store's lock timeout and with `CancellationError` when its task is cancelled, while the
    /// holder still holds the lock; and that the lock is free once the holder lets go.
    /// - Parameters:
    ///   - store: A store whose lock timeout is well under `holdFor`.
    ///   - holdFor: How long the holder keeps the lock at most; it lets go as soon as the checks
    ///     are done. A waiter that waits for it fails the check.
    /// - Throws: ``ConformanceFailure`` naming what went wrong.
    public static func checkRefreshLockWaitsAreBounded(_ store: any RefreshLocking, holdFor: Duration = .seconds(20)) async throws {
        let account = AccountKey(namespace: "lock", account: "bounded")
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await store.withRefreshLock(for: account) {
                holding.yield()
                try? await Task.sleep(for: holdFor)  // until cancelled: the checks are done
            }
        }
        defer { holder.cancel() }
        for await _ in held { break }
        let timedOut: (any Error)?
        do { try await store.withRefreshLock(for: account) {}; timedOut = nil } catch { timedOut = error }
        try expect((timedOut as? CredentialStoreError)?.code == .unavailable, "a waiter did not give up at the lock timeout: \(timedOut.map { "\($0)" } ?? "it got the lock")")
        let waiter = Task { try await store.withRefreshLock(for: account) {} }
        try await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        let cancelled: (any Error)?
        do { try await waiter.value; cancelled = nil } catch { cancelled = error }
        try expect(cancelled is CancellationError, "a cancelled waiter did not stop waiting: \(cancelled.map { "\($0)" } ?? "it got the lock")")
        holder.cancel()
        try await holder.value
        try await store.withRefreshLock(for: account) {}
    }

    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(message: message()) }
    }
}

/// A conformance check that did not hold.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was observed.
    public let message: String
    /// The failure text.
    public var description: String { "CredentialStore conformance: \(message)" }
}

actor OverlapProbe {
    private(set) var current = 0
    private(set) var maximum = 0
    private(set) var entries = 0
    func enter() { current += 1; entries += 1; maximum = max(maximum, current) }
    func leave() { current -= 1 }
}
