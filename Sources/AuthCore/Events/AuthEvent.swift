// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Something that happened to an account's authentication, for observers to react to.
public enum AuthEvent: Sendable, Equatable, CustomStringConvertible {
    /// A credential was stored by a sign-in.
    case signedIn(AccountKey)
    /// A credential was renewed (and persisted, unless `persistFailed` follows).
    case renewed(AccountKey)
    /// A renewal failed for a reason that may pass; requests may try again.
    case renewalFailed(AccountKey, reason: String)
    /// The credential cannot be renewed any more; the user must sign in again.
    case reauthenticationRequired(AccountKey, reason: String)
    /// More renewals were needed than the renewal limit allows.
    case excessiveRenewal(AccountKey)
    /// The account's credential was removed by a sign-out.
    case signedOut(AccountKey)
    /// A server reported a rate limit.
    case rateLimited(RateLimitInfo)
    /// The store could not be used; the account is not signed out because of it.
    case storeUnavailable(AccountKey?, reason: String)
    /// A renewed credential could not be persisted yet; it is used in this process while the
    /// renewal keeps the refresh lock and retries until the store takes it.
    case persistFailed(AccountKey, reason: String)
    /// A renewal has waited this long for another process's refresh lock (emitted once per
    /// renewal, after about a second).
    case waitingForRefreshLock(AccountKey, waited: Duration)
    /// A credential was not put on a request to an origin its configuration does not allow
    /// (a redirect to another origin, or a request sent there directly).
    case credentialWithheld(CredentialWithheld)
    /// A sign-out could not revoke the account's tokens at the provider (RFC 7009); the local
    /// credential was removed all the same.
    case revocationFailed(AccountKey, reason: String)
    /// A client was built on the container's default in-memory store, because no store was
    /// configured: the account's credentials last only as long as the process. Configure a
    /// store (`useSQLiteStore(at:)`, `useFileStore(at:)`…), or set an
    /// ``InMemoryCredentialStore`` yourself when that is what you want.
    case credentialsNotPersisted(AccountKey)
    /// A sign-in or renewal brought a credential whose renewal ends soon (a refresh token that
    /// expires within ``RenewalPolicy/refreshExpiryNotice``): after `expiresAt`, requests fail
    /// with `reauthenticationRequired` until the user signs in again.
    case refreshTokenExpiring(AccountKey, expiresAt: Date)
    /// A resource refused the account's token because it needs a stronger or more recent
    /// sign-in (RFC 9470) or more scope (RFC 6750 §3.1); a renewal cannot help, a new sign-in at
    /// that level can (AuthOAuth2's `OAuth2Client.stepUp`).
    case stepUpRequired(AccountKey, StepUpChallenge)
    /// A server's key was none of its host's pins: the connection was refused, or used when the
    /// pinning only reports (see ``CertificatePinning``).
    case pinMismatch(PinMismatch)

    /// A one-line summary, free of secrets.
    public var description: String {
        switch self {
        case .signedIn(let a): "signedIn(\(a))"
        case .renewed(let a): "renewed(\(a))"
        case .renewalFailed(let a, let reason): "renewalFailed(\(a)): \(reason)"
        case .reauthenticationRequired(let a, let reason): "reauthenticationRequired(\(a)): \(reason)"
        case .excessiveRenewal(let a): "excessiveRenewal(\(a))"
        case .signedOut(let a): "signedOut(\(a))"
        case .rateLimited(let info): "rateLimited(\(info))"
        case .storeUnavailable(let a, let reason): "storeUnavailable(\(a.map(\.description) ?? "-")): \(reason)"
        case .persistFailed(let a, let reason): "persistFailed(\(a)): \(reason)"
        case .waitingForRefreshLock(let a, let waited): "waitingForRefreshLock(\(a)): \(waited)"
        case .credentialWithheld(let withheld): "credentialWithheld(\(withheld.account.map(\.description) ?? "-")): \(withheld)"
        case .revocationFailed(let a, let reason): "revocationFailed(\(a)): \(reason)"
        case .credentialsNotPersisted(let a): "credentialsNotPersisted(\(a)): no store is configured; credentials are kept in memory only"
        case .refreshTokenExpiring(let a, let expiresAt): "refreshTokenExpiring(\(a)): at \(expiresAt)"
        case .stepUpRequired(let a, let challenge): "stepUpRequired(\(a)): \(challenge)"
        case .pinMismatch(let mismatch): "pinMismatch: \(mismatch)"
        }
    }

    /// The account the event concerns, if any.
    public var account: AccountKey? {
        switch self {
        case .signedIn(let a), .renewed(let a), .renewalFailed(let a, _), .reauthenticationRequired(let a, _),
            .excessiveRenewal(let a), .signedOut(let a), .persistFailed(let a, _), .waitingForRefreshLock(let a, _),
            .revocationFailed(let a, _), .credentialsNotPersisted(let a), .refreshTokenExpiring(let a, _), .stepUpRequired(let a, _):
            a
        case .storeUnavailable(let a, _): a
        case .rateLimited(let info): info.account
        case .credentialWithheld(let withheld): withheld.account
        case .pinMismatch: nil
        }
    }
}

/// What a server said about its rate limit.
public struct RateLimitInfo: Sendable, Equatable, CustomStringConvertible {
    /// The account whose request was answered, if known.
    public var account: AccountKey?
    /// The origin that answered.
    public var origin: String
    /// The HTTP status (429, 503, or 2xx with headers near their limit).
    public var status: Int
    /// `X-RateLimit-Limit`.
    public var limit: Int?
    /// `X-RateLimit-Remaining`.
    public var remaining: Int?
    /// `X-RateLimit-Reset`, as a date when it could be read.
    public var reset: Date?
    /// `Retry-After`, in seconds.
    public var retryAfter: Double?

    /// Creates the info.
    public init(account: AccountKey? = nil, origin: String, status: Int, limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil, retryAfter: Double? = nil) {
        self.account = account
        self.origin = origin
        self.status = status
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.retryAfter = retryAfter
    }

    /// A one-line summary.
    public var description: String {
        "\(origin) status \(status) remaining \(remaining.map(String.init) ?? "?")/\(limit.map(String.init) ?? "?") retryAfter \(retryAfter.map { "\($0)s" } ?? "-")"
    }
}
