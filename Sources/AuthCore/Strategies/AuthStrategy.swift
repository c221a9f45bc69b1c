// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// The policy for one credential type: where it may go, when it needs renewal, what counts as
/// an authentication failure, and how to renew it.
///
/// ## Implementing
/// Only ``allowedHosts`` and ``renew(_:context:)`` are required; the defaults attach the
/// credential with its own `authorize`, renew within the leeway before `expiresAt`, and treat a
/// 401 as an authentication failure. `renew` throws `AuthError.reauthenticationRequired` when
/// only a new sign-in can help (the session then stops trying), and any other error for
/// failures that may pass.
public protocol AuthStrategy<Value>: Sendable {
    /// The credential type this strategy manages.
    associatedtype Value: Credential
    /// The origins the credential may be sent to.
    var allowedHosts: AllowedHosts { get }
    /// Puts the credential on a request.
    func authorize(_ request: inout AuthRequest, with credential: Value)
    /// Whether the credential should be renewed before use at `now` (already corrected for the
    /// server's clock).
    func needsRenewal(_ credential: Value, now: Date, leeway: Duration) -> Bool
    /// Whether the response says the credential was not accepted.
    func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool
    /// For a response that ``isAuthenticationFailure(_:for:)`` accepted: an error when the
    /// response says a renewal cannot help (a missing CSRF token, say), so the request fails at
    /// once with it instead of renewing. Nil (the default) renews.
    func nonRenewableFailure(_ response: AuthResponse, for request: AuthRequest) -> AuthError?
    /// Produces a new credential from the current one (nil when none is stored).
    func renew(_ credential: Value?, context: RenewalContext) async throws -> Value
}

extension AuthStrategy {
    /// Calls the credential's own `authorize`.
    public func authorize(_ request: inout AuthRequest, with credential: Value) {
        credential.authorize(&request)
    }
    /// True when `expiresAt - leeway <= now`; never for credentials without expiry.
    public func needsRenewal(_ credential: Value, now: Date, leeway: Duration) -> Bool {
        guard let expiresAt = credential.expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= leeway.seconds
    }
    /// True for 401 Unauthorized.
    public func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        response.status == .unauthorized
    }
    /// Nil: every authentication failure may be fixed by a renewal.
    public func nonRenewableFailure(_ response: AuthResponse, for request: AuthRequest) -> AuthError? { nil }
}

/// What a strategy's `renew` gets besides the credential.
public struct RenewalContext: Sendable {
    /// The account being renewed.
    public let account: AccountKey
    /// The vault of the account's store, for records besides the credential (such as a device id).
    public let vault: CredentialVault
    /// The clock, corrected for the server's clock skew.
    public let now: Date
}
