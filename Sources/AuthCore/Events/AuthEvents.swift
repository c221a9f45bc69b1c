import Synchronization

/// Broadcasts ``AuthEvent``s to any number of observers.
///
/// Each call to ``stream()`` returns an independent `AsyncStream` that receives every event
/// emitted after it was created; a slow observer buffers up to `bufferSize` events and then drops
/// the oldest, so it never slows authentication down.
///
/// ```swift
/// for await event in container[AuthEventsKey.self].stream() {
///     if case .reauthenticationRequired(let account, _) = event { showSignIn(account) }
/// }
/// ```
public final class AuthEvents: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<AuthEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)
    private let bufferSize: Int

    /// Creates a broadcaster.
    public init(bufferSize: Int = 256) { self.bufferSize = bufferSize }

    /// A new stream of the events emitted from now on; it ends when the stream is dropped.
    public func stream() -> AsyncStream<AuthEvent> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<AuthEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    /// Sends an event to every observer.
    public func emit(_ event: AuthEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(event)
        }
    }

    /// The number of observers currently following.
    public var observerCount: Int { continuations.withLock { $0.count } }
}
