import AuthCore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The store's change feed: one pooled connection that `LISTEN`s on the channel the table's
/// trigger notifies (``PostgresSchema``), the records served from memory while it is connected,
/// and the subscribers it tells about changes.
///
/// While the connection is lost nothing is served from memory, and subscribers get
/// `CredentialChange.unknown` at once, every ``PostgresChangeFeedOptions/readThroughInterval``
/// until it is back, and once more when it is (what changed meanwhile is not known).
final class PostgresChangeFeed: Sendable {
    /// The notification channel (``PostgresTables/channel``).
    let channel: String
    let options: PostgresChangeFeedOptions
    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private struct State {
        var connected = false
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

    init(options: PostgresChangeFeedOptions, channel: String) {
        self.options = options
        self.channel = channel
    }

    /// Whether notifications are arriving.
    var isConnected: Bool { state.withLock { $0.connected } }

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
            state.connected = false
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    private func listen(_ client: PostgresClient, logger: Logger) async {
        while !Task.isCancelled {
            // Each attempt in a task of its own, which the heartbeat cancels when the connection
            // stopped delivering without failing (a half-open socket, a stopped backend).
            let attempt = Task {
                try await client.withConnection { connection in
                    self.state.withLock { $0.connection = connection }
                    do {
                        try await connection.listen(on: self.channel) { notifications in
                            self.connectionChanged(connected: true)
                            logger.debug("the change feed is listening")
                            for try await notification in notifications { self.received(notification.payload) }
                        }
                    } catch {
                        // A connection whose listening failed (its backend terminated, say) is
                        // closed, not handed back: a read given it would wait for its deadline.
                        try? await connection.close()
                        throw error
                    }
                }
            }
            state.withLock { $0.attempt = attempt }
            do {
                try await withTaskCancellationHandler {
                    try await attempt.value
                } onCancel: {
                    attempt.cancel()
                }
            } catch {
                logger.debug("the change feed was lost", metadata: ["error": "\(type(of: error))"])
            }
            state.withLock { state in
                state.attempt = nil
                state.connection = nil  // back in the pool (or closed): never closed from here again
            }
            if isConnected {
                logger.warning("the change feed was lost; reading through until it is back")
                connectionChanged(connected: false)
            }
            try? await Task.sleep(for: options.retryInterval)
        }
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
            connectionChanged(connected: false)
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

    private func connectionChanged(connected: Bool) {
        state.withLock { state in
            state.connected = connected
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
        state.withLock { state in state.connected ? state.records[key] : nil }
    }

    /// The epoch to pass to ``remember(_:at:since:)`` for a read about to start.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps what a read that started at `epoch` returned, unless anything changed since.
    func remember(_ envelope: Envelope?, at key: CredentialKey, since epoch: UInt64) {
        guard options.cachesRecords else { return }
        state.withLock { state in
            guard state.connected, state.epoch == epoch else { return }
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
