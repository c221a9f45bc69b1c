// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The value of a cookie's `SameSite` attribute (RFC 6265bis §4.1.2.7).
///
/// The jar keeps the value as it was parsed and does not enforce it when sending: an API client
/// has no "site for cookies" to compare with, every request it sends is its own. When storing,
/// it ignores a cookie with `None` but without `Secure`, as RFC 6265bis §5.7 and browsers do.
/// A missing attribute and a value other than `Strict`, `Lax` or `None` both leave
/// ``Cookie/sameSite`` nil ("unset"), as RFC 6265bis §5.6.7 prescribes (its enforcement mode
/// "Default"); browsers treat an unset value as `Lax`, so callers that enforce it should read nil
/// as ``lax``.
public enum SameSite: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Sent only with same-site requests.
    case strict = "Strict"
    /// Sent with same-site requests and top-level cross-site navigations.
    case lax = "Lax"
    /// Sent with every request.
    case none = "None"

    /// The attribute value, case-insensitively, or nil for an unknown value.
    public init?(attributeValue: some StringProtocol) {
        switch attributeValue.lowercased() {
        case "strict": self = .strict
        case "lax": self = .lax
        case "none": self = .none
        default: return nil
        }
    }

    /// `Strict`, `Lax` or `None`.
    public var description: String { rawValue }
}
