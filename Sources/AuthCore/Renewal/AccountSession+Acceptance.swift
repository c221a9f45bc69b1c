import Synchronization

/// Whether the server took the current credential: what tells a credential that went stale
/// (refused after the server took it) from one the server never takes.
///
/// A request refused with one credential is sent again with a newer one: renewed for it, or the
/// current one when another request renewed meanwhile. When that one is refused too, another
/// try helps only if the server took it before, so that it stopped taking it earlier than the
/// client expected (a token whose issue time the server rounded down, a request held up on a
/// loaded machine), if it is due by the client's own clock (it expired on its way: a renewal
/// whose answer was held up past the token's expiry), or if a newer one came meanwhile. A
/// credential the server never took and the client does not hold due (every request refused,
/// whatever the credential) is not renewed again, however many requests were waiting: one
/// renewal per wave.
extension AccountSession {
    /// Records that the server took `credential`: it answered a request made with it (a status
    /// below 400). A few instructions: a relaxed load, and a store when the revision is new.
    @inline(__always)
    nonisolated func noteAccepted(_ credential: Published) {
        let revision = credential.revision
        guard revision != .max, acceptedRevision.load(ordering: .relaxed) != revision else { return }
        acceptedRevision.store(revision, ordering: .relaxed)
    }

    /// Whether a request refused with `credential` after a first refusal may try once more: the
    /// server took it since it became current (it went stale since), it is due by the client's
    /// own clock (it expired on the way: a renewal answered, or a request held up, after the
    /// server's expiry of the token), or it is no longer current (a newer one came meanwhile,
    /// which the next try takes without renewing while it is not due). Never after a sign-out:
    /// the request then ends with its refusal.
    func mayTryAgain(after credential: Published) -> Bool {
        guard let current else { return false }
        return credential.credential != current || acceptedRevision.load(ordering: .relaxed) == revision || isDue(current)
    }
}
