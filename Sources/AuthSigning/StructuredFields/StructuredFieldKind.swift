// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The top-level type of an RFC 8941 structured field: what RFC 9421's `;sf` and `;key`
/// component parameters need to know to parse a field and serialize it again.
///
/// ```swift
/// let signer = HTTPMessageSigner(
///     keyID: "k", key: .hmacSHA256(SymmetricKey(data: sharedSecret)), components: [.header("example-dict", structured: true)],
///     structuredFields: StructuredFieldKind.registered.merging(["example-dict": .dictionary]) { $1 }
/// )
/// ```
public enum StructuredFieldKind: Sendable, Hashable {
    /// An item (RFC 8941 §3.3).
    case item
    /// A list (§3.1).
    case list
    /// A dictionary (§3.2).
    case dictionary

    /// Fields whose RFCs define them as structured, by lower-case name.
    public static let registered: [String: StructuredFieldKind] = [
        "accept-ch": .list, "accept-signature": .dictionary, "cache-status": .list, "cdn-cache-control": .dictionary,
        "client-cert": .item, "client-cert-chain": .list, "content-digest": .dictionary, "priority": .dictionary,
        "proxy-status": .list, "repr-digest": .dictionary, "signature": .dictionary, "signature-input": .dictionary,
        "want-content-digest": .dictionary, "want-repr-digest": .dictionary,
    ]

    /// `text` parsed as this kind and serialized again: the strict form RFC 9421 §2.1.1 signs.
    /// - Throws: ``SigningError`` when `text` is not a valid field of this kind.
    public func reserialize(_ text: String) throws(SigningError) -> String {
        switch self {
        case .item: try StructuredField.parseItem(text).serialized
        case .list: try StructuredField.parseList(text).map(\.serialized).joined(separator: ", ")
        case .dictionary: try StructuredField.parseDictionary(text).serialized
        }
    }
}
