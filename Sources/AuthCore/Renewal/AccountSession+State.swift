import Foundation
import Synchronization

/// The observers of a session's ``AccountState``, and what they were last told.
struct StateObservers: Sendable {
    /// The state from the session's credential, renewal and failure (nil until it is loaded).
    var base: AccountState?
    /// Whether the last store operation failed, and why.
    var storeFault: String?
    /// The state last sent.
    var sent: AccountState?
    var continuations: [Int: AsyncStream<AccountState>.Continuation] = [:]
    var nextID = 0

    /// The state observers see: a recorded failure or a renewal first, then a store fault, then
    /// signed in or out.
    var effective: AccountState? {
        switch base {
        case .reauthenticationRequired, .renewing: base
        default: storeFault.map { .storeUnavailable(reason: $0) } ?? base
        }
    }

    /// Sends the effective state to every observer when it changed.
    mutating func send() {
        guard let state = effective, state != sent else { return }
        sent = state
        for continuation in continuations.values { continuation.yield(state) }
    }
}

extension AccountSession {
    /// The account's state as it changes, starting with the current one: signed out, signed in
    /// (with the expiry), renewing, re-authentication required, store unavailable. Consecutive
    /// repeats are not sent; a slow reader keeps the newest 64 states.
    ///
    /// The first state needs the stored credential: a session that has not read it yet reads it
    /// now (each new call tries again while the store is unavailable). The sequence ends when the
    /// iterating task is cancelled or the session is released.
    ///
    /// ```swift
    /// for await state in client.session.states() {
    ///     if case .reauthenticationRequired = state { showSignIn(client.account) }
    /// }
    /// ```
    public nonisolated func states() -> AsyncStream<AccountState> {
        let (stream, continuation) = AsyncStream<AccountState>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let (id, loaded) = stateObservers.withLock { observers in
            defer { observers.nextID += 1 }
            observers.continuations[observers.nextID] = continuation
            if let state = observers.effective { continuation.yield(state) }
            return (observers.nextID, observers.base != nil)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.stateObservers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        // Not loaded yet (or the last load failed: `storeUnavailable`): read it now.
        if !loaded { Task { await self.loadForObservers() } }
        return stream
    }

    /// Reads the stored credential so that observers learn the first state (a failure to read
    /// is reported to them as `storeUnavailable`).
    private func loadForObservers() async {
        if !loaded { try? await load() }
    }

    /// The state from what the actor holds, sent to observers when it changed.
    func publishState() {
        let base: AccountState? = if let failure {
            .reauthenticationRequired(reason: failure.message)
        } else if inFlight != nil {
            .renewing
        } else if !loaded {
            nil
        } else if let current {
            .signedIn(expiresAt: current.expiresAt)
        } else {
            .signedOut
        }
        stateObservers.withLock { observers in
            observers.base = base
            observers.send()
        }
    }

    /// Records the store failing (`reason`) or working again (nil) for observers.
    nonisolated func publishStoreFault(_ reason: String?) {
        stateObservers.withLock { observers in
            guard observers.storeFault != reason else { return }
            observers.storeFault = reason
            observers.send()
        }
    }
}
