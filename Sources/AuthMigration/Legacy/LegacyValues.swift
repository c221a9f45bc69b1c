// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The values a layout found in its source, trimmed, with empty values treated as absent.
struct LegacyValues: Sendable {
    private(set) var values: [String: String] = [:]
    /// The key names that held a value, in the layout's order.
    private(set) var found: [String] = []

    /// Reads every key of `layout` from `source`.
    static func read(_ layout: LegacyLayout, from source: any KeyValueSource) async throws -> LegacyValues {
        var result = LegacyValues()
        for name in layout.keyNames where result.values[name] == nil {
            guard let raw = try await source.value(for: name) else { continue }
            let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            result.values[name] = text
            result.found.append(name)
        }
        return result
    }

    /// The value of `name`, nil when absent (or when `name` is nil).
    subscript(_ name: String?) -> String? { name.flatMap { values[$0] } }

    /// The value of `name`, which the layout cannot do without.
    func required(_ name: String, layout: LegacyLayout) throws(MigrationError) -> String {
        guard let value = values[name] else {
            throw MigrationError(code: .missingLegacyValue, message: "the \(layout.name) layout found '\(layout.primaryKey)' but not '\(name)', which it needs")
        }
        return value
    }

    /// The date in `name`: Unix seconds (milliseconds when above 10^11), or ISO 8601.
    func date(_ name: String?, layout: LegacyLayout) throws(MigrationError) -> Date? {
        guard let name, let text = values[name] else { return nil }
        if let number = Double(text), number.isFinite, number >= 0 {
            return Date(timeIntervalSince1970: number > 1e11 ? number / 1000 : number)
        }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        throw MigrationError(code: .invalidLegacyValue, message: "the \(layout.name) layout's '\(name)' is neither Unix seconds nor an ISO 8601 date")
    }
}
