/// How a ``PostgresCredentialStore`` follows the changes other machines make (`LISTEN/NOTIFY`).
public struct PostgresChangeFeedOptions: Sendable {
    /// While the notification connection is lost, how often every session re-reads its credential
    /// from the database (and `get` reads through): the longest a credential replaced or signed
    /// out elsewhere can still be used here while notifications cannot arrive.
    public var readThroughInterval: Duration
    /// How long to wait before connecting the feed again after it was lost.
    public var retryInterval: Duration
    /// Whether `get` is served from memory while the feed is connected (records are forgotten as
    /// notifications about their account arrive).
    public var cachesRecords: Bool
    /// The most records kept in memory; past it the memory is cleared and filled again.
    public var maximumCachedRecords: Int

    /// Options; the defaults re-read every 5 s while the feed is lost and try it again every second.
    public init(readThroughInterval: Duration = .seconds(5), retryInterval: Duration = .seconds(1), cachesRecords: Bool = true, maximumCachedRecords: Int = 10_000) {
        self.readThroughInterval = readThroughInterval
        self.retryInterval = retryInterval
        self.cachesRecords = cachesRecords
        self.maximumCachedRecords = maximumCachedRecords
    }
}
