// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The store's change feed: one pooled connection that `LISTEN`s on the channel the table's
/// trigger notifies (``PostgresSchema``), the records served from memory while it is connected,
/// and the subscribers it tells about changes.
///
/// The feed is trusted only once proven. Each attempt first `LISTEN`s on a channel of its own
/// (`authkit_probe_<random>`), notifies it from another connection, and waits up to
/// ``PostgresChangeFeedOptions/probeTimeout`` for that probe; only a connection that heard it
/// keeps its session, and only then `LISTEN`s on the store's channel. Behind a pooler in
/// transaction mode the probe's `LISTEN` lands on a server connection that goes back to the pool,
/// the probe is never heard, and the feed reports ``PostgresChangeFeedStatus/notDelivering``,
/// warns once and tries again every ``PostgresChangeFeedOptions/reprobeInterval``; the store's
/// channel is then never `LISTEN`ed on through the pooler, so no pooled server connection is left
/// registered on it (a notification such a connection passes to a client that is itself starting
/// to `LISTEN` on the channel traps PostgresNIO), and none of the probe channels is ever notified
/// again.
///
/// While the feed is not connected nothing is served from memory, and subscribers get
/// `CredentialChange.unknown` at once, every ``PostgresChangeFeedOptions/readThroughInterval``
/// until it is back, and once more when it is (what changed meanwhile is not known).
final class PostgresChangeFeed: Sendable {
    /// The notification channel (``PostgresTables/channel``).
    let channel: String
    /// Where the probe is sent instead of the attempt's own channel, in tests of a probe that is
    /// not heard; nil otherwise.
    let misdirectedProbe: String?
    let options: PostgresChangeFeedOptions
    /// How long sending the probe may take (the store's operation timeout).
    let sendTimeout: Duration
    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private struct State {
        var status = PostgresChangeFeedStatus.connecting
        /// Bumped by every change and connection change: a read that started under an older
        /// epoch may be stale and is not kept.
        var epoch: UInt64 = 0
        var records: [CredentialKey: Envelope?] = [:]
        var subscribers: [UInt64: AsyncStream<CredentialChange>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        /// The listening attempt running now, and its connection.
        var attempt: Task<Void, any Error>?
        var connection: PostgresConnection?
        /// The heartbeat notification awaited, and whether it came back.
        var ping: String?
        var pong = false
    }

    init(options: PostgresChangeFeedOptions, channel: String, sendTimeout: Duration, misdirectedProbe: String? = nil) {
        self.options = options
        self.channel = channel
        self.sendTimeout = sendTimeout
        self.misdirectedProbe = misdirectedProbe
    }

    /// Whether notifications are arriving.
    var isConnected: Bool { status == .connected }

    /// What the feed is doing.
    var status: PostgresChangeFeedStatus { state.withLock { $0.status } }

    /// Starts listening through `client` (which must be running) and the read-through ticker.
    func start(client: PostgresClient, logger: Logger) {
        let listening = Task { await self.listen(client, logger: logger) }
        let ticking = Task { await self.tick() }
        let beating = Task { await self.heartbeat(client, logger: logger) }
        tasks.withLock { $0 = [listening, ticking, beating] }
    }

    /// Stops listening and ends every subscription.
    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            state.status = .lost
            state.records.removeAll()
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// The probe was not heard: the connection is sound, but notifications do not reach it.
    private struct NotDelivering: Error {}
    /// A notification sequence ended without an error (its connection closed).
    private struct ListeningEnded: Error {}

    private func listen(_ client: PostgresClient, logger: Logger) async {
        while !Task.isCancelled {
            // Each attempt in a task of its own, which the heartbeat cancels when the connection
            // stopped delivering without failing (a half-open socket, a stopped backend).
            let attempt = Task {
                try await client.withConnection { connection in
                    self.state.withLock { $0.connection = connection }
                    do {
                        try await self.prove(connection, client: client, logger: logger)
                        try await connection.listen(on: self.channel) { notifications in
                            self.proven(logger: logger)
                            for try await notification in notifications { self.received(notification.payload) }
                        }
                    } catch let error as NotDelivering {
                        throw error  // a sound connection, handed back
                    } catch {
                        // A connection whose listening failed (its backend terminated, say) is
                        // closed, not handed back: a read given it would wait for its deadline.
                        try? await connection.close()
                        throw error
                    }
                }
            }
            state.withLock { $0.attempt = attempt }
            var pause = options.retryInterval
            do {
                try await withTaskCancellationHandler {
                    try await attempt.value
                } onCancel: {
                    attempt.cancel()
                }
            } catch is NotDelivering {
                pause = options.reprobeInterval
            } catch {
                logger.debug("the change feed was lost", metadata: ["error": "\(type(of: error))"])
            }
            state.withLock { state in
                state.attempt = nil
                state.connection = nil  // back in the pool (or closed): never closed from here again
            }
            if isConnected {
                logger.warning("the change feed was lost; reading through until it is back")
                statusChanged(to: .lost)
            }
            try? await Task.sleep(for: pause)
        }
    }

    /// Proves that `connection` hears notifications: `LISTEN`s on a channel of its own, notifies
    /// it from another connection (within the store's operation timeout), and waits up to
    /// ``PostgresChangeFeedOptions/probeTimeout`` to hear it. Throws `NotDelivering` (the feed is
    /// then ``PostgresChangeFeedStatus/notDelivering``) when it is not heard, and what listening
    /// or sending threw.
    private func prove(_ connection: PostgresConnection, client: PostgresClient, logger: Logger) async throws {
        let own = "authkit_probe_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let target = misdirectedProbe ?? own
        let timeout = sendTimeout
        let wait = options.probeTimeout
        let heard = try await connection.listen(on: own) { notifications in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for try await notification in notifications where notification.payload == "probe" { return true }
                    throw ListeningEnded()
                }
                group.addTask {
                    try await Deadline.run(within: timeout, {
                        for try await _ in try await client.query("SELECT pg_notify(\(target), 'probe')", logger: logger) {}
                    }, expired: {
                        CredentialStoreError.unavailable("the change feed's probe notification could not be sent within \(timeout)")
                    })
                    try await Task.sleep(for: wait)
                    return false
                }
                defer { group.cancelAll() }
                return try await group.next() ?? false
            }
        }
        guard heard else {
            if status != .notDelivering {
                logger.warning("the change feed does not receive notifications (a connection pooler in transaction mode, such as PgBouncer?): reading through; use session pooling or connect directly to have the feed", metadata: ["probeTimeout": "\(wait)"])
                statusChanged(to: .notDelivering)
            }
            throw NotDelivering()
        }
    }

    /// The feed, proven, listens on the store's channel: records may be kept from now on.
    private func proven(logger: Logger) {
        if status == .notDelivering {
            logger.notice("the change feed receives notifications again; records are served from memory")
        } else {
            logger.debug("the change feed is listening")
        }
        statusChanged(to: .connected)
    }

    /// Every ``PostgresChangeFeedOptions/heartbeatInterval`` while connected: notifies the
    /// channel from another connection and expects it back on the listening one within the same
    /// interval; when it does not come back (or cannot be sent), the feed is treated as lost.
    private func heartbeat(_ client: PostgresClient, logger: Logger) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: options.heartbeatInterval)
            guard isConnected else { continue }
            let ping = "ping:\(UUID().uuidString)"
            state.withLock { state in
                state.ping = ping
                state.pong = false
            }
            // Sent in a task of its own: a pool that cannot connect must not hold the check up.
            let sending = Task { _ = try? await client.query("SELECT pg_notify(\(self.channel), \(ping))", logger: logger).collect() }
            let deadline = ContinuousClock.now + options.heartbeatInterval
            while ContinuousClock.now < deadline, !state.withLock({ $0.pong }), !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
            }
            sending.cancel()
            guard !Task.isCancelled, !state.withLock({ $0.pong }), isConnected else { continue }
            logger.warning("the change feed stopped delivering (no heartbeat); reading through until it is back")
            statusChanged(to: .lost)
            // Closed, not handed back: the pool must not give a dead connection to a read.
            let (attempt, connection) = state.withLock { ($0.attempt, $0.connection) }
            try? await connection?.close()
            attempt?.cancel()
        }
    }

    private func tick() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: options.readThroughInterval)
            if !isConnected { broadcast(.unknown) }
        }
    }

    private func statusChanged(to status: PostgresChangeFeedStatus) {
        state.withLock { state in
            state.status = status
            state.epoch &+= 1
            state.records.removeAll()
        }
        broadcast(.unknown)
    }

    /// A notification: `<namespace hex>.<account hex>`, `*` (a name too long to carry), or this
    /// feed's heartbeat (`ping:<id>`, another instance's is ignored).
    private func received(_ payload: String) {
        if payload.hasPrefix("ping:") {
            state.withLock { state in
                if state.ping == payload { state.pong = true }
            }
            return
        }
        let parts = payload.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let namespace = Self.utf8(hex: parts[0]), let account = Self.utf8(hex: parts[1]) else {
            forgetAll()
            broadcast(.unknown)
            return
        }
        let key = AccountKey(namespace: namespace, account: account)
        forget(key)
        broadcast(.account(key))
    }

    // MARK: Records in memory

    /// The record at `key` as last read, when the feed vouches that it has not changed since
    /// (`.some(nil)`: known to be absent); nil when it must be read.
    func cached(_ key: CredentialKey) -> Envelope?? {
        state.withLock { state in state.status == .connected ? state.records[key] : nil }
    }

    /// The epoch to pass to ``remember(_:at:since:)`` for a read about to start.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps what a read that started at `epoch` returned, unless anything changed since.
    func remember(_ envelope: Envelope?, at key: CredentialKey, since epoch: UInt64) {
        guard options.cachesRecords else { return }
        state.withLock { state in
            guard state.status == .connected, state.epoch == epoch else { return }
            if state.records.count >= options.maximumCachedRecords { state.records.removeAll() }
            state.records[key] = .some(envelope)
        }
    }

    /// Forgets what is kept of `account` (a write of this process, or a notification).
    func forget(_ account: AccountKey) {
        state.withLock { state in
            state.epoch &+= 1
            state.records = state.records.filter { $0.key.namespace != account.namespace || $0.key.account != account.account }
        }
    }

    /// Forgets every record kept.
    func forgetAll() {
        state.withLock { state in
            state.epoch &+= 1
            state.records.removeAll()
        }
    }

    // MARK: Subscribers

    /// A new subscription.
    func subscribe() -> AsyncStream<CredentialChange> {
        let (stream, continuation) = AsyncStream<CredentialChange>.makeStream(bufferingPolicy: .bufferingNewest(1_024))
        let id = state.withLock { state in
            defer { state.nextSubscriber &+= 1 }
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `change` to every subscriber; one whose buffer is full (a burst of changes) gets
    /// `.unknown` as its newest, so that a dropped change still leads to a re-read.
    private func broadcast(_ change: CredentialChange) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            if case .dropped = subscriber.yield(change) { subscriber.yield(.unknown) }
        }
    }

    static func utf8(hex: Substring) -> String? {
        guard hex.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
