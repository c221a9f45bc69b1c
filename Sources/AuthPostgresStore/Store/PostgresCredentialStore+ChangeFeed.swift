public import AuthCore

extension PostgresCredentialStore: CredentialChangeFeed {
    /// The accounts other machines (and this one) change, as PostgreSQL notifies them; `.unknown`
    /// while the feed is lost (every ``PostgresChangeFeedOptions/readThroughInterval``) and when it
    /// is back. A store opened without a change feed reports nothing.
    public func credentialChanges() -> AsyncStream<CredentialChange> {
        guard let feed else { return AsyncStream { $0.finish() } }
        return feed.subscribe()
    }

    /// Whether the change feed is connected (notifications arrive, `get` is served from memory).
    public var isChangeFeedConnected: Bool { feed?.isConnected ?? false }
}
