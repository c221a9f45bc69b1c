import Foundation

/// Limits and timing of credential renewal.
///
/// ## When a credential is due
/// A credential is renewed ``leeway`` before it expires, but never earlier than three quarters
/// into its lifetime (``maximumLeewayFraction``): a token that lives 2 s is renewed after 1.5 s,
/// not the moment it is issued. A credential's lifetime runs from when this process obtained it
/// (signed in, renewed, or read it from the store, where its record's write time counts).
///
/// ## The renewal budget
/// The budget (``maxRenewals`` per ``window``) stops loops, such as a server that rejects every
/// renewed credential; steady renewal at the provider's own token lifetime never touches it. A
/// renewal counts when a rejection forced it, or when the credential it replaces had lived less
/// than half its lifetime (or less than half a second), or had no known lifetime. Adopting a credential
/// another process renewed, a store failure, and finding the account signed out never count.
public struct RenewalPolicy: Sendable, Equatable {
    /// Renew this long before the credential expires (default 30 s), bounded by
    /// ``maximumLeewayFraction`` of its lifetime.
    public var leeway: Duration
    /// At most this many counted renewals per account within ``window`` (default 5)…
    public var maxRenewals: Int
    /// …in this window (default 30 s); past it, `AuthError.excessiveRenewal`.
    public var window: Duration
    /// A server `Date` header further than this from the local clock, at every instant between
    /// sending the request and receiving the whole response, is taken as clock skew (default 2 s:
    /// the header has one-second resolution). A slow response alone is not taken as skew.
    public var skewThreshold: Duration
    /// The largest part of a credential's lifetime the leeway may take (default 0.25).
    public var maximumLeewayFraction: Double
    /// After a failure that needs a new sign-in, how often a request may look in the store for a
    /// credential signed in by another process (default 1 s); requests in between fail fast.
    public var failureRecheckInterval: Duration
    /// How long another process watches a renewal's lease in the store unchanged before it takes
    /// the renewal over (default 5 s): the holder died, or lost the store for that long. A live
    /// holder rewrites its lease every ``leaseBeat``. See <doc:RenewingCredentials>.
    public var leaseTerm: Duration

    /// A fifth of ``leaseTerm``: how often a renewal rewrites its lease, and retries a write of
    /// its result that failed.
    public var leaseBeat: Duration { leaseTerm / 5 }
    /// How long a renewal waits for another process's renewal before it reports the store
    /// unavailable: six lease terms (30 s by default).
    var leaseWaitLimit: Duration { leaseTerm * 6 }

    /// Creates a policy.
    public init(
        leeway: Duration = .seconds(30), maxRenewals: Int = 5, window: Duration = .seconds(30),
        skewThreshold: Duration = .seconds(2), maximumLeewayFraction: Double = 0.25,
        failureRecheckInterval: Duration = .seconds(1), leaseTerm: Duration = .seconds(5)
    ) {
        self.leeway = leeway
        self.maxRenewals = maxRenewals
        self.window = window
        self.skewThreshold = skewThreshold
        self.maximumLeewayFraction = maximumLeewayFraction.isFinite ? min(max(maximumLeewayFraction, 0), 1) : 0.25
        self.failureRecheckInterval = failureRecheckInterval
        self.leaseTerm = max(leaseTerm, .milliseconds(50))
    }

    /// The leeway for a credential obtained at `obtainedAt` that expires at `expiresAt`.
    func leeway(expiresAt: Date?, obtainedAt: Date) -> Duration {
        guard let expiresAt else { return leeway }
        let bound = expiresAt.timeIntervalSince(obtainedAt) * maximumLeewayFraction
        guard bound.isFinite, bound < leeway.seconds else { return leeway }
        return .clamped(seconds: bound, to: leeway)
    }

    /// Whether renewing a credential obtained at `obtainedAt` counts against the budget at `now`.
    func renewalCounts(expiresAt: Date?, obtainedAt: Date, now: Date, forcedByRejection: Bool) -> Bool {
        guard !forcedByRejection, let expiresAt else { return true }
        let lifetime = expiresAt.timeIntervalSince(obtainedAt)
        let age = now.timeIntervalSince(obtainedAt)
        guard lifetime.isFinite, lifetime > 0 else { return true }
        return age < lifetime / 2 || age < Self.minimumUncountedAge
    }

    /// A credential renewed younger than this counts, whatever its lifetime: a provider that
    /// issues tokens of no lifetime at all cannot make the client renew in a tight loop.
    static let minimumUncountedAge: TimeInterval = 0.5
}
