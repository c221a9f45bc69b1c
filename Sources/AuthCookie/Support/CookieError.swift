// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The errors AuthCookie throws: why the jar did not store a `Set-Cookie` value, or why a public
/// suffix list could not be loaded or compiled.
///
/// ``CookieJar/setCookie(fromHeaderValue:for:)`` throws it for a rejected cookie; the bulk and
/// middleware paths ignore rejected cookies, as RFC 6265 and RFC 6265bis say ("ignore the cookie
/// entirely"). The message names the cookie and the rule it broke, never its value.
///
/// ``PublicSuffixList/init(text:includingPrivateDomains:)`` and its siblings throw it with a
/// `publicSuffixList…` code. When the list shipped with AuthCookie cannot be loaded,
/// ``PublicSuffixList/builtIn`` does not throw: it fails closed and keeps the error in
/// ``PublicSuffixList/unavailableReason``.
public struct CookieError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public typealias Code = ErrorCode<CookieError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of cookie values: what failed and what to do.
    public let message: String
    /// The 1-based line of the public suffix list that is at fault, when there is one.
    public let line: Int?
    /// The lower failure (a file-system error), when there is one.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, line: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.underlying = underlying
    }

    /// `CookieError.code: message`, with the line and the underlying error.
    public var description: String {
        var text = "CookieError.\(code): \(message)"
        if let line { text += " (line \(line))" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension ErrorCode where Domain == CookieError {
    // A rejected cookie.

    /// The value is not a cookie (no `=`, an empty name, a control character).
    public static var malformed: Self { Self("malformed") }
    /// The request URL has no host, so there is no origin to store the cookie for.
    public static var invalidURL: Self { Self("invalidURL") }
    /// The `Domain` attribute does not domain-match the request host.
    public static var domainMismatch: Self { Self("domainMismatch") }
    /// The `Domain` attribute is a public suffix (such as `com` or `co.uk`).
    public static var publicSuffix: Self { Self("publicSuffix") }
    /// A `Secure` cookie came from an insecure origin.
    public static var insecureOrigin: Self { Self("insecureOrigin") }
    /// The name and value are longer than the jar's per-cookie limit.
    public static var tooLarge: Self { Self("tooLarge") }
    /// The name starts with `__Secure-` or `__Host-` (in any case) and the cookie does not
    /// meet that prefix's requirements (RFC 6265bis §4.1.3).
    public static var invalidPrefix: Self { Self("invalidPrefix") }
    /// An insecure origin tried to overwrite, shadow or delete a `Secure` cookie of the same
    /// name ("leave secure cookies alone", RFC 6265bis §5.7).
    public static var shadowsSecureCookie: Self { Self("shadowsSecureCookie") }
    /// The answer is late: the request carried another value of this cookie than the jar now
    /// holds (a sign-in or another answer stored a newer one meanwhile), so it is not replaced.
    public static var overtaken: Self { Self("overtaken") }
    /// The cookie has `SameSite=None` but not `Secure` (RFC 6265bis §5.7).
    public static var sameSiteNoneWithoutSecure: Self { Self("sameSiteNoneWithoutSecure") }

    // A public suffix list that cannot be loaded or compiled.

    /// The list is not in AuthCookie's resource bundle: the package was built or installed
    /// without `Resources/public_suffix_list.dat`.
    public static var publicSuffixListMissing: Self { Self("publicSuffixListMissing") }
    /// The file could not be read; ``CookieError/underlying`` says why.
    public static var publicSuffixListUnreadable: Self { Self("publicSuffixListUnreadable") }
    /// The text is not a public suffix list: not UTF-8, or without the sections it must have.
    public static var publicSuffixListMalformed: Self { Self("publicSuffixListMalformed") }
    /// A line is not a rule this implementation accepts: an empty label, a `*` other than
    /// a whole leftmost label, an exception rule with a wildcard or a single label.
    public static var publicSuffixListInvalidRule: Self { Self("publicSuffixListInvalidRule") }
}

