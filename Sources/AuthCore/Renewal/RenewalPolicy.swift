/// Limits and timing of credential renewal.
public struct RenewalPolicy: Sendable, Equatable {
    /// Renew this long before the credential expires (default 30 s).
    public var leeway: Duration
    /// At most this many renewals per account within ``window`` (default 5)…
    public var maxRenewals: Int
    /// …in this window (default 30 s); past it, `AuthError.excessiveRenewal`.
    public var window: Duration
    /// A server `Date` header further than this from the local clock is taken as clock skew
    /// (default 2 s: the header has one-second resolution).
    public var skewThreshold: Duration

    /// Creates a policy.
    public init(leeway: Duration = .seconds(30), maxRenewals: Int = 5, window: Duration = .seconds(30), skewThreshold: Duration = .seconds(2)) {
        self.leeway = leeway
        self.maxRenewals = maxRenewals
        self.window = window
        self.skewThreshold = skewThreshold
    }
}
