// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The errors AuthKit's client, strategies and middlewares throw.
///
/// A struct with an extensible ``Code`` rather than an enum, so that new cases do not break
/// users' `switch` statements. Compare codes: `error.code == .reauthenticationRequired`.
/// The ``message`` names what failed and what to do about it; it never contains a secret.
public struct AuthError: Error, Sendable, CustomStringConvertible, CustomReflectable {
    /// What kind of failure this is.
    public typealias Code = ErrorCode<AuthError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The account concerned, when there is one.
    public let account: AccountKey?
    /// The HTTP status, for `httpStatus` errors.
    public let status: Int?
    /// The response body, for `httpStatus` and `decoding` errors.
    public let responseBody: [UInt8]?
    /// The lower-level error, when this one wraps another.
    public let underlying: (any Error)?
    /// How long the server asked the client to wait before trying again (`Retry-After` of a
    /// `429` or `503`), when it said so and the wait was not taken.
    public let retryAfter: Duration?

    /// Creates an error; prefer the static constructors.
    public init(
        code: Code, message: String, account: AccountKey? = nil, status: Int? = nil,
        responseBody: [UInt8]? = nil, underlying: (any Error)? = nil, retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.account = account
        self.status = status
        self.responseBody = responseBody
        self.underlying = underlying
        self.retryAfter = retryAfter
    }

    /// Code, message, account, status and the body's size; not the body itself, which may hold
    /// user data, nor the underlying error's fields.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "code": code.description, "message": message, "account": account?.description ?? "-",
            "status": status.map(String.init) ?? "-", "responseBody": "\(responseBody?.count ?? 0) bytes",
            "retryAfter": retryAfter.map { "\($0)" } ?? "-",
        ], displayStyle: .struct)
    }

    /// `AuthError(code): message [account] (caused by: …)`.
    public var description: String {
        var text = "AuthError.\(code): \(message)"
        if let account { text += " [\(account)]" }
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

extension AuthError {
    /// The request could not be built.
    public static func invalidRequest(_ message: String) -> AuthError {
        AuthError(code: .invalidRequest, message: message)
    }
    /// The transport failed.
    public static func transport(_ message: String, underlying: (any Error)? = nil) -> AuthError {
        AuthError(code: .transport, message: message, underlying: underlying)
    }
    /// The user must sign in again.
    public static func reauthenticationRequired(_ account: AccountKey?, reason: String, underlying: (any Error)? = nil) -> AuthError {
        AuthError(code: .reauthenticationRequired, message: "re-authentication required: \(reason)", account: account, underlying: underlying)
    }
    /// The account has no stored credential.
    public static func notSignedIn(_ account: AccountKey) -> AuthError {
        AuthError(code: .notSignedIn, message: "no credential is stored for this account; sign in first", account: account)
    }
}

extension ErrorCode where Domain == AuthError {
    /// The request could not be built or is not acceptable.
    public static var invalidRequest: Self { Self("invalidRequest") }
    /// The transport could not send the request or read the response.
    public static var transport: Self { Self("transport") }
    /// The request did not finish within its time limit.
    public static var timeout: Self { Self("timeout") }
    /// A redirect chain was longer than the configured limit, or had no usable `Location`.
    public static var redirect: Self { Self("redirect") }
    /// The account has no credential: sign in first.
    public static var notSignedIn: Self { Self("notSignedIn") }
    /// A sign-in was refused: wrong user name, password or code. Ask the user again.
    public static var invalidCredentials: Self { Self("invalidCredentials") }
    /// The credential cannot be renewed any more; the user must sign in again.
    public static var reauthenticationRequired: Self { Self("reauthenticationRequired") }
    /// More renewals were asked for than the renewal limit allows in its window.
    public static var excessiveRenewal: Self { Self("excessiveRenewal") }
    /// A renewal failed for a reason that may pass (network, server error).
    public static var renewalFailed: Self { Self("renewalFailed") }
    /// The server answered with a status the caller did not accept.
    public static var httpStatus: Self { Self("httpStatus") }
    /// A response body was larger than the transport's limit or the request's
    /// (``RequestOptions/maxResponseBytes``); the transport stopped reading it.
    public static var responseTooLarge: Self { Self("responseTooLarge") }
    /// A response body could not be decoded.
    public static var decoding: Self { Self("decoding") }
    /// The credential store could not be used. It never means "signed out": the stored
    /// credential stays, and the next request tries again.
    public static var storage: Self { Self("storage") }
    /// The server rejected the client itself (`invalid_client`, `unauthorized_client`,
    /// `unsupported_grant_type`, `invalid_scope` at the token endpoint): a configuration
    /// error that no retry or renewal fixes. Requests fail fast until a new sign-in. Also a
    /// local configuration that cannot be used: a pin set without a backup pin, an unreadable
    /// client certificate or key, pinning on a transport that cannot check pins.
    public static var misconfigured: Self { Self("misconfigured") }
    /// The server refused the request again with a newer credential, one it had not answered
    /// a request with since it became current and that was not due for renewal by the
    /// client's clock, or refused it a third time (after one more try for a credential that
    /// went stale or was due). No further renewal is attempted for the request.
    public static var rejectedAfterRenewal: Self { Self("rejectedAfterRenewal") }
    /// The app's ``CredentialAccessGate`` did not approve the use of the stored credential
    /// (the user said no, or the prompt failed: its error is the underlying one). Nothing was
    /// sent; the next request asks again.
    public static var accessDenied: Self { Self("accessDenied") }
    /// The server refused the request's CSRF token; a renewal cannot fix that.
    public static var csrfRejected: Self { Self("csrfRejected") }
    /// An authorization (a sign-in through the provider's authorization endpoint or a device
    /// grant) did not complete: the user or the provider refused it, or its answer failed a
    /// check (`state`, issuer, a missing code). The `OAuth2Error` (AuthOAuth2), when the provider sent
    /// one, is the underlying error. Start a new authorization.
    public static var authorizationFailed: Self { Self("authorizationFailed") }
    /// A resource needs a stronger or more recent sign-in (RFC 9470
    /// `insufficient_user_authentication`) or more scope (RFC 6750 §3.1 `insufficient_scope`)
    /// than the token has. The ``StepUpChallenge`` is the underlying error: sign in again at
    /// that level (AuthOAuth2's `OAuth2Client.stepUp`); no renewal is attempted.
    public static var stepUpRequired: Self { Self("stepUpRequired") }
    /// The server's certificate chain was valid, but its key is none of the host's pins (see
    /// ``CertificatePinning``), and the pins are enforced: the connection was closed before a
    /// request was written on it. Never retried on another connection, never a fallback.
    public static var pinMismatch: Self { Self("pinMismatch") }
    /// A certificate-bound token (RFC 8705 `cnf.x5t#S256`) was about to be sent over a
    /// connection that does not present that certificate: nothing was sent.
    public static var certificateBindingUnmet: Self { Self("certificateBindingUnmet") }
}
