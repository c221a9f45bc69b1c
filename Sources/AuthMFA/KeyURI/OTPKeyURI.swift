// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// An `otpauth://` key URI (Google Authenticator Key Uri Format), as shown in enrollment QR codes.
///
/// `otpauth://TYPE/ISSUER:ACCOUNT?secret=BASE32&issuer=ISSUER&algorithm=SHA1&digits=6&period=30`.
/// Build one with ``init(kind:secret:account:issuer:algorithm:digits:)`` and read ``uriString``;
/// parse one with ``init(parsing:)``. The label and parameters are percent-encoded (UTF-8,
/// RFC 3986), so any Unicode issuer or account round-trips. Neither may contain `:`.
///
/// The ``uriString`` holds the secret (that is its purpose); ``description`` and `dump()` do not.
///
/// ```swift
/// let uri = try OTPKeyURI(kind: .totp(period: 30), secret: secret,
///                         account: "alice@example.com", issuer: "Example Co")
/// showQRCode(uri.uriString)
/// let parsed = try OTPKeyURI(parsing: scannedText)
/// let totp = try parsed.makeTOTP()
/// ```
public struct OTPKeyURI: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The generator type with its type-specific parameter.
    public enum Kind: Sendable, Hashable {
        /// Time-based, with the step length in seconds.
        case totp(period: Int)
        /// Counter-based, with the initial counter.
        case hotp(counter: UInt64)

        /// `totp` or `hotp`, as written in the URI.
        public var name: String {
            switch self {
            case .totp: "totp"
            case .hotp: "hotp"
            }
        }
    }

    /// TOTP or HOTP, with period or counter.
    public let kind: Kind
    /// The shared secret.
    public let secret: OTPSecret
    /// The account name (such as an e-mail address); not empty, no `:`.
    public let account: String
    /// The provider or service, when given; not empty, no `:`.
    public let issuer: String?
    /// The hash function (default SHA-1).
    public let algorithm: OTPAlgorithm
    /// The code length, 6 to 8 (default 6).
    public let digits: Int

    /// Creates a key URI, checking every part.
    ///
    /// - Parameters:
    ///   - kind: `.totp(period:)` (positive seconds) or `.hotp(counter:)`.
    ///   - secret: The shared secret.
    ///   - account: The account name; not empty, without `:`.
    ///   - issuer: The provider, if any; not empty, without `:`.
    ///   - algorithm: The hash function.
    ///   - digits: 6, 7 or 8.
    /// - Throws: ``MFAError`` naming the part that is invalid.
    public init(kind: Kind, secret: OTPSecret, account: String, issuer: String? = nil, algorithm: OTPAlgorithm = .sha1, digits: Int = 6) throws(MFAError) {
        guard !account.isEmpty, !account.contains(":") else {
            throw MFAError(code: .keyURILabel, message: "the account name must not be empty nor contain ':'")
        }
        if let issuer, issuer.isEmpty || issuer.contains(":") {
            throw MFAError(code: .keyURIIssuer, message: "the issuer must not be empty nor contain ':'")
        }
        guard MFAError.allowedDigits.contains(digits) else {
            throw MFAError(code: .keyURIDigits, message: "digits must be 6, 7 or 8")
        }
        if case .totp(let period) = kind, period <= 0 {
            throw MFAError(code: .keyURIPeriod, message: "the period must be a positive whole number of seconds")
        }
        self.kind = kind
        self.secret = secret
        self.account = account
        self.issuer = issuer
        self.algorithm = algorithm
        self.digits = digits
    }

    /// Describes an existing TOTP generator for enrollment.
    ///
    /// - Throws: ``MFAError`` `.keyURILabel` or `.keyURIIssuer` for an invalid name.
    public init(totp: TOTP, account: String, issuer: String? = nil) throws(MFAError) {
        try self.init(kind: .totp(period: totp.period), secret: totp.secret, account: account, issuer: issuer, algorithm: totp.algorithm, digits: totp.digits)
    }

    /// The URI text, with the label and parameters percent-encoded. Contains the secret.
    public var uriString: String {
        var label = PercentEncoding.encode(account)
        var query = "secret=\(secret.base32EncodedString(padding: false))"
        if let issuer {
            // A reader drops the spaces after the label's `issuer:` prefix, so an account that
            // starts with one keeps it only in a label without the prefix (the parameter names
            // the issuer).
            if !account.hasPrefix(" ") { label = PercentEncoding.encode(issuer) + ":" + label }
            query += "&issuer=\(PercentEncoding.encode(issuer))"
        }
        query += "&algorithm=\(algorithm.uriName)&digits=\(digits)"
        switch kind {
        case .totp(let period): query += "&period=\(period)"
        case .hotp(let counter): query += "&counter=\(counter)"
        }
        return "otpauth://\(kind.name)/\(label)?\(query)"
    }

    /// ``uriString`` as a `URL`.
    public var url: URL? { URL(string: uriString) }

    /// A TOTP generator for this URI.
    ///
    /// - Throws: ``MFAError`` when the URI is an `hotp` one (`.invalidPeriod`).
    public func makeTOTP() throws(MFAError) -> TOTP {
        guard case .totp(let period) = kind else {
            throw MFAError(code: .invalidPeriod, message: "an hotp key URI has no period; use makeHOTP()")
        }
        return try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// An HOTP generator for this URI (the counter is ``kind``'s).
    ///
    /// - Throws: ``MFAError`` when the digits are invalid (not possible for a checked URI).
    public func makeHOTP() throws(MFAError) -> HOTP {
        try HOTP(secret: secret, algorithm: algorithm, digits: digits)
    }

    /// Type, issuer, account and parameters; never the secret.
    public var description: String {
        let parameter: String
        switch kind {
        case .totp(let period): parameter = "period \(period)"
        case .hotp(let counter): parameter = "counter \(counter)"
        }
        return "OTPKeyURI(\(kind.name), issuer: \(issuer ?? "none"), account: \(account), \(algorithm), \(digits) digits, \(parameter), secret: \(Redacted.marker))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "kind": kind, "issuer": issuer as Any, "account": account,
            "algorithm": algorithm, "digits": digits, "secret": Redacted.marker,
        ], displayStyle: .struct)
    }
}
