// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Edits and reads the query of a request path (`/p?a=1&b=2`) without touching the rest.
enum QueryItems {
    /// Splits a path into the part before `?` and the raw query items.
    static func split(_ path: String) -> (path: Substring, items: [Substring]) {
        guard let mark = path.firstIndex(of: "?") else { return (Substring(path), []) }
        let query = path[path.index(after: mark)...]
        return (path[..<mark], query.split(separator: "&", omittingEmptySubsequences: true))
    }

    /// The decoded name of a raw `name=value` item.
    static func name(of item: Substring) -> String {
        let raw = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? item
        return FormURLEncoding.decode(raw) ?? String(raw)
    }

    /// The decoded name and value of a raw `name=value` item (an item without `=` has an empty
    /// value); a part that does not decode is kept as written.
    static func decoded(_ item: Substring) -> (name: String, value: String) {
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let value = parts.count == 2 ? parts[1] : ""
        return (name(of: item), FormURLEncoding.decode(value) ?? String(value))
    }

    /// Joins a path and raw items back together.
    static func join(_ path: Substring, _ items: [Substring]) -> String {
        items.isEmpty ? String(path) : "\(path)?\(items.joined(separator: "&"))"
    }

    /// Sets `name` to `value`, replacing items of that name.
    static func setting(_ name: String, to value: String, in path: String) -> String {
        let (base, items) = split(path)
        var kept = items.filter { Self.name(of: $0) != name }
        kept.append(Substring("\(encode(name))=\(encode(value))"))
        return join(base, kept)
    }

    /// Removes the items whose names are in `names` (compared case-insensitively).
    static func removing(_ names: Set<String>, from path: String) -> String {
        let (base, items) = split(path)
        let kept = items.filter { !names.contains(Self.name(of: $0).lowercased()) }
        return kept.count == items.count ? path : join(base, kept)
    }

    /// Replaces the values of items whose names are in `names` with `<redacted>`.
    static func redacting(_ names: Set<String>, in path: String) -> String {
        let (base, items) = split(path)
        var changed = false
        let redacted = items.map { item -> Substring in
            let name = Self.name(of: item)
            guard names.contains(name.lowercased()) else { return item }
            changed = true
            return Substring("\(encode(name))=<redacted>")
        }
        return changed ? join(base, redacted) : path
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (a space as `%20`).
    static func encode(_ text: String) -> String {
        FormURLEncoding.encode(text, keeping: .unreserved, spaceAs: .percent20)
    }
}
