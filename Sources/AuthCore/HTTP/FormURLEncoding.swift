// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// `application/x-www-form-urlencoded` (the WHATWG URL standard's serializer): what OAuth 2.0
/// token, revocation and authorization requests are written in.
///
/// ```swift
/// let body = FormURLEncoding.body([("grant_type", "client_credentials"), ("scope", "read write")])
/// // grant_type=client_credentials&scope=read+write
/// ```
///
/// Within the package this is also the one percent-encoder and form decoder: see
/// `encode(_:keeping:spaceAs:)`, `decode(_:)` and `items(_:)`.
public enum FormURLEncoding {
    /// One name or value: unreserved bytes as they are, spaces as `+`, the rest percent-encoded.
    ///
    /// The same as `encode(text, keeping: .form, spaceAs: .plus)`: `A-Z a-z 0-9 * - . _` stay
    /// as they are (`~` is encoded as `%7E`).
    public static func encode(_ text: String) -> String {
        encode(text, keeping: .form, spaceAs: .plus)
    }

    /// Name-value pairs joined with `=` and `&`, in order.
    public static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0))=\(encode($1))" }.joined(separator: "&")
    }

    /// ``query(_:)`` as a request body.
    public static func body(_ pairs: [(String, String)]) -> Data {
        Data(query(pairs).utf8)
    }
}

extension FormURLEncoding {
    /// The bytes an encoding leaves as they are (every other byte of the UTF-8 is written `%XX`).
    package enum KeptBytes: Sendable {
        /// `A-Z a-z 0-9 * - . _`: the URL standard's `application/x-www-form-urlencoded` set
        /// (form bodies, OAuth 2.0, and RFC 9421 §2.2.8 `@query-param` values). `~` is encoded.
        case form
        /// `A-Z a-z 0-9 - . _ ~`: RFC 3986 §2.3 unreserved characters (query items of a request
        /// path, cookie-session login forms, `otpauth://` URIs). `*` is encoded.
        case unreserved
    }

    /// How an encoding writes a space.
    package enum SpaceEncoding: Sendable {
        /// `+`, as the URL standard's form serializer does.
        case plus
        /// `%20`, like any other byte outside the kept set (RFC 3986, RFC 9421 §2.2.8).
        case percent20
    }

    /// `text` percent-encoded: the package's one encoder for form names and values and for URI
    /// components.
    ///
    /// The bytes of `kept` stay as they are; a space is `+` or `%20` as `spaceAs` says; every
    /// other byte of the UTF-8 is `%XX` with upper-case hex digits. The variants in use:
    /// - `.form, .plus`: `application/x-www-form-urlencoded` (``encode(_:)``, token request
    ///   bodies, `client_secret_basic` credentials, RFC 6749 §2.3.1);
    /// - `.form, .percent20`: RFC 9421 §2.2.8 `@query-param` names and values;
    /// - `.unreserved, .percent20`: RFC 3986 percent-encoding (query items of a request path,
    ///   cookie-session login forms, `otpauth://` labels and parameters).
    package static func encode(_ text: String, keeping kept: KeptBytes, spaceAs space: SpaceEncoding) -> String {
        func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10 }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let keep = switch kept {
            case .form: URIBytes.isUnreserved(byte) ? byte != UInt8(ascii: "~") : byte == UInt8(ascii: "*")
            case .unreserved: URIBytes.isUnreserved(byte)
            }
            if keep {
                out.append(byte)
            } else if byte == UInt8(ascii: " "), space == .plus {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One form-encoded name or value decoded: `+` is a space and `%XX` escapes are decoded
    /// (Foundation's `removingPercentEncoding`, so decoded bytes that are not UTF-8 are
    /// repaired rather than refused); nil when a `%` is not followed by two hex digits. The
    /// package's one form decoder: each caller chooses what a nil stands for.
    package static func decode(_ text: some StringProtocol) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The items of a form-encoded `text` (a body, or a query without its `?`), in order and
    /// still encoded: split on `&` (empty items dropped), then on the first `=`; `value` is nil
    /// for an item without `=`.
    package static func items(_ text: String) -> [(name: Substring, value: Substring?)] {
        text.split(separator: "&").map { item in
            guard let equals = item.firstIndex(of: "=") else { return (item, nil) }
            return (item[..<equals], item[item.index(after: equals)...])
        }
    }
}
