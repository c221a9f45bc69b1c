import Foundation
import Synchronization

/// Store failure episodes of a session: one event per episode, observers told.
extension AccountSession {
    /// A store failure as the `.storage` error requests get; the first of an episode also sends
    /// a `storeUnavailable` event.
    nonisolated func storageFailure(_ error: CredentialStoreError, _ what: String) -> AuthError {
        let first = shared.withLock { state in
            defer { state.storeFaulted = true }
            return !state.storeFaulted
        }
        if first { events.emit(.storeUnavailable(account, reason: error.message)) }
        publishStoreFault(error.message)
        return AuthError(code: .storage, message: "\(what): \(error.message)", account: account, underlying: error)
    }

    /// Ends a store failure episode.
    nonisolated func storeRecovered() {
        shared.withLock { $0.storeFaulted = false }
        publishStoreFault(nil)
    }
}
