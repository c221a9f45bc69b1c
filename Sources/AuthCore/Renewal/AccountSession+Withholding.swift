import Synchronization

extension AccountSession {
    /// The credential last published, whether or not it is due for renewal; nil while a
    /// renewal runs or after a failure. Read without entering the actor, to take the credential
    /// off a request to an origin it must not reach (see ``AuthRequest/removingWrites(of:)``).
    nonisolated func loadedCredential() -> Strategy.Value? {
        shared.withLock { $0.ready?.credential }
    }
}
