// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Limits and timing of credential renewal.
///
/// ## When a credential is due
/// A credential is renewed ``leeway`` before it expires, but never earlier than three quarters
/// into its lifetime (``maximumLeewayFraction``): a token that lives 2 s is renewed after 1.5 s,
/// not the moment it is issued. A credential's lifetime runs from when this process obtained it
/// (signed in, renewed, or read it from the store, where its record's write time counts).
///
/// ## The server's clock
/// Expiries are read in the server's clock, which the client knows only to the second: a
/// `Date` field has whole-second resolution, a skew below ``skewThreshold`` is not taken, and
/// servers stamp whole-second expiries (a JWT's `exp`). So a server may refuse a credential a
/// little before the client's clock says it expires. That refusal is the expected race, not a
/// loop: it renews without counting against the budget, and it shows how far ahead the
/// server's clock reads, so the next credential is renewed in time (see
/// ``AccountSession/clockSkew``).
///
/// ## The renewal budget
/// The budget (``maxRenewals`` per ``window``) stops loops, such as a server that rejects every
/// renewed credential; steady renewal at the provider's own token lifetime never touches it. A
/// renewal counts when the credential it replaces had lived less than half its lifetime (or
/// less than half a second), or had no known lifetime, and when a rejection forced it, unless
/// the credential was in its last second, or within the uncertainty of the server's clock, of
/// its expiry. Adopting a credential another process renewed, a store failure, and finding
/// the account signed out never count.
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
    /// How long before a credential's renewal ends (``Credential/renewableUntil``: a refresh
    /// token's expiry) a sign-in or renewal that brings it reports
    /// ``AuthEvent/refreshTokenExpiring(_:expiresAt:)`` (default 5 minutes), so that the app can
    /// ask the user to sign in again before requests start to fail.
    public var refreshExpiryNotice: Duration

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
        failureRecheckInterval: Duration = .seconds(1), leaseTerm: Duration = .seconds(5),
        refreshExpiryNotice: Duration = .seconds(300)
    ) {
        self.refreshExpiryNotice = refreshExpiryNotice
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

    /// Whether renewing a credential obtained at `obtainedAt` counts against the budget at `now`
    /// (server time): when it is young, and when a rejection forced it, unless that rejection
    /// is the race at its expiry (``isExpiryRace(expiresAt:obtainedAt:now:uncertainty:)``).
    func renewalCounts(expiresAt: Date?, obtainedAt: Date, now: Date, forcedByRejection: Bool, uncertainty: TimeInterval) -> Bool {
        guard forcedByRejection else { return isYoung(expiresAt: expiresAt, obtainedAt: obtainedAt, now: now) }
        return !isExpiryRace(expiresAt: expiresAt, obtainedAt: obtainedAt, now: now, uncertainty: uncertainty)
    }

    /// Whether a credential obtained at `obtainedAt` is young at `now`: it has lived less than
    /// half its lifetime, or less than half a second, or has no known lifetime.
    func isYoung(expiresAt: Date?, obtainedAt: Date, now: Date) -> Bool {
        guard let expiresAt else { return true }
        let lifetime = expiresAt.timeIntervalSince(obtainedAt)
        let age = now.timeIntervalSince(obtainedAt)
        guard lifetime.isFinite, lifetime > 0 else { return true }
        return age < lifetime / 2 || age < Self.minimumUncountedAge
    }

    /// Whether the server's rejection, at `now` (server time as the client reads it), of a
    /// credential obtained at `obtainedAt` is the expected race at its expiry: the credential is
    /// not young, and it had at most ``clockResolution``, or `uncertainty` (how much further
    /// ahead the server's clock may read), left to live.
    func isExpiryRace(expiresAt: Date?, obtainedAt: Date, now: Date, uncertainty: TimeInterval) -> Bool {
        guard let expiresAt, !isYoung(expiresAt: expiresAt, obtainedAt: obtainedAt, now: now) else { return false }
        return expiresAt.timeIntervalSince(now) <= max(uncertainty, Self.clockResolution)
    }

    /// How well the client knows the server's clock at best: to the second, the resolution of a
    /// `Date` field and of the whole-second expiries servers stamp (a JWT's `exp`).
    static let clockResolution: TimeInterval = 1

    /// A credential renewed younger than this counts, whatever its lifetime: a provider that
    /// issues tokens of no lifetime at all cannot make the client renew in a tight loop.
    static let minimumUncountedAge: TimeInterval = 0.5
}
