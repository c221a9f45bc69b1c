extension AccountSession {
    /// A credential as requests receive it: one object per published credential, so that a
    /// request holds a reference rather than a copy of a value whose size only the strategy
    /// knows (a generic local in an async function costs an allocation per request).
    final class Published: Sendable {
        /// The session's ``revision`` when it published this credential; `.max` for a credential
        /// a request got otherwise (waiting for a renewal, say). First, so that unspecialized
        /// code finds it at a fixed offset.
        let revision: UInt64
        let credential: Strategy.Value
        /// The renewal leeway for this credential, bounded by its lifetime.
        let leeway: Duration
        init(_ credential: Strategy.Value, leeway: Duration = .zero, revision: UInt64 = .max) {
            self.revision = revision
            self.credential = credential
            self.leeway = leeway
        }
    }
}
