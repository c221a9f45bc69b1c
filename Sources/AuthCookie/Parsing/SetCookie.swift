// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// One `Set-Cookie` header value, parsed by the algorithm of RFC 6265 §5.2.
///
/// Parsing never fails loudly: a value the algorithm says to ignore gives nil, and an attribute
/// whose value is not acceptable is skipped, as if it were absent; so is an attribute whose value
/// is longer than 1,024 bytes (RFC 6265bis §5.6). When an attribute appears more than once, the
/// last acceptable one wins (§5.3 "the last attribute in the cookie-attribute-list").
///
/// ```swift
/// let parsed = SetCookie(parsing: "sid=abc; Path=/; Secure; HttpOnly; Max-Age=3600")
/// let name = parsed?.name          // "sid"
/// let maxAge = parsed?.maxAge      // 3600
/// let isSecure = parsed?.isSecure  // true
/// ```
///
/// Its ``description`` and `dump` never show the value.
public struct SetCookie: Sendable, Hashable {
    /// The cookie name, trimmed of spaces and tabs; never empty.
    public var name: String
    /// The cookie value, trimmed of spaces and tabs; quotes are kept.
    public var value: String
    /// The `Expires` date, when it parsed as a cookie-date (§5.2.1); as sent (the jar caps a
    /// cookie's lifetime at 400 days when it stores it).
    public var expires: Date?
    /// The `Max-Age` in seconds, when it was an integer (§5.2.2); zero or less means "expire now".
    /// Values beyond the range of `Int64` saturate.
    public var maxAge: Int64?
    /// The `Domain` without its leading dot, lower-cased (§5.2.3); nil when absent or empty.
    public var domain: String?
    /// The `Path` (§5.2.4); nil when absent, empty or not starting with `/` (the jar then uses
    /// the default path of the request URL).
    public var path: String?
    /// Whether the `Secure` attribute is present.
    public var isSecure: Bool
    /// Whether the `HttpOnly` attribute is present.
    public var isHTTPOnly: Bool
    /// The `SameSite` value; nil when absent or unknown (see ``SameSite``).
    public var sameSite: SameSite?

    /// Creates a parsed cookie from its parts.
    public init(
        name: String, value: String, expires: Date? = nil, maxAge: Int64? = nil, domain: String? = nil,
        path: String? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.expires = expires
        self.maxAge = maxAge
        self.domain = domain
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
    }

    /// Parses a `Set-Cookie` header value.
    ///
    /// Returns nil, ignoring the value as a whole, when the name-value pair has no `=` or an empty
    /// name (RFC 6265 §5.2), or when the value contains a control character other than a tab
    /// (RFC 6265bis §5.6 step 1; this keeps CR and LF out of `Cookie` headers).
    public init?(parsing header: String) {
        let bytes = Array(header.utf8)
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) { return nil }
        let pairEnd = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<pairEnd]
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        let name = Self.trimmed(pair[..<equals])
        guard !name.isEmpty else { return nil }
        self.init(name: Self.string(name), value: Self.string(Self.trimmed(pair[(equals + 1)...])))

        var index = pairEnd
        while index < bytes.endIndex {
            index += 1  // the ";"
            let avEnd = bytes[index...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            let av = bytes[index..<avEnd]
            index = avEnd
            if let equals = av.firstIndex(of: UInt8(ascii: "=")) {
                let value = Self.trimmed(av[(equals + 1)...])
                // RFC 6265bis §5.6: "If the attribute-value is longer than 1024 octets, ignore the cookie-av."
                guard value.count <= Self.maxAttributeValueLength else { continue }
                apply(name: Self.trimmed(av[..<equals]), value: value)
            } else {
                apply(name: Self.trimmed(av), value: av[av.endIndex...])
            }
        }
    }

    /// The longest attribute value, in bytes, that is not ignored (RFC 6265bis §5.6).
    static let maxAttributeValueLength = 1_024

    /// Processes one cookie-av by its case-insensitive name (§5.2.1–§5.2.6); others are ignored.
    private mutating func apply(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
        switch Self.string(name).lowercased() {
        case "expires":
            if let date = CookieDate.parse(bytes: value) { expires = date }
        case "max-age":
            if let seconds = Self.deltaSeconds(value) { maxAge = seconds }
        case "domain":
            guard !value.isEmpty else { return }  // "SHOULD ignore the cookie-av entirely"
            let text = value.first == UInt8(ascii: ".") ? value.dropFirst() : value
            domain = Self.string(text).lowercased()
        case "path":
            path = value.first == UInt8(ascii: "/") ? Self.string(value) : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = SameSite(attributeValue: Self.string(value))
        default:
            break
        }
    }

    /// §5.2.2: a leading DIGIT or "-", then only DIGITs; otherwise nil (the attribute is ignored).
    static func deltaSeconds(_ value: ArraySlice<UInt8>) -> Int64? {
        guard let first = value.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        let digits = negative ? value.dropFirst() : value
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var result: Int64 = 0
        for digit in digits {
            let (times10, overflowA) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int64(digit - 0x30))
            if overflowA || overflowB { result = .max; break }
            result = sum
        }
        return negative ? -result : result
    }

    /// Removes leading and trailing WSP (space and horizontal tab).
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return slice
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

extension SetCookie: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The name and attributes; the value is redacted.
    public var description: String {
        var text = "SetCookie(\(name)=<redacted>"
        if let expires { text += "; Expires=\(expires)" }
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if let domain { text += "; Domain=\(domain)" }
        if let path { text += "; Path=\(path)" }
        if isSecure { text += "; Secure" }
        if isHTTPOnly { text += "; HttpOnly" }
        if let sameSite { text += "; SameSite=\(sameSite)" }
        return text + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// The attributes without the value, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "name": name, "value": "<redacted>", "expires": expires as Any, "maxAge": maxAge as Any,
            "domain": domain as Any, "path": path as Any, "isSecure": isSecure,
            "isHTTPOnly": isHTTPOnly, "sameSite": sameSite as Any,
        ], displayStyle: .struct)
    }
}
