// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A JSON value, for claims and other free-form server data.
///
/// Numbers are `.number(Double)`, except integers whose magnitude exceeds 2^53 (where a `Double`
/// stops holding every integer exactly): those are `.integer(Int64)`, so that an id such as
/// `9007199254740993` keeps its value. Read a number of either kind with ``doubleValue`` or
/// ``int64Value``.
///
/// `Codable` conformance is for other users of the type. Its `init(from:)` has to try each type in
/// turn (Codable cannot ask a decoder which type comes next), which makes deeply nested input
/// costly; ``JWT`` does not use it and reads JSON with a linear, depth-limited reader instead.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; integers within ±2^53 are exact.
    case number(Double)
    /// An integer whose magnitude exceeds 2^53, kept exact. Smaller integers are ``number(_:)``.
    case integer(Int64)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// 2^53: integers up to this magnitude are exact as `Double`.
    static let exactDoubleIntegerLimit: UInt64 = 1 << 53

    /// The value as a `Double`, for ``number(_:)`` and ``integer(_:)`` (rounded to the nearest
    /// `Double`); nil for other values.
    public var doubleValue: Double? {
        switch self {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The value as an exact `Int64`: an ``integer(_:)``, or a ``number(_:)`` with no fractional
    /// part within `Int64`'s range; nil for other values.
    public var int64Value: Int64? {
        switch self {
        case .number(let value): Int64(exactly: value)
        case .integer(let value): value
        default: nil
        }
    }

    /// Decodes any JSON value.
    ///
    /// Tries each type in turn; do not use it on untrusted, deeply nested input (see the type's
    /// discussion).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            if value.magnitude >= 0x1p53, let exact = try? container.decode(Int64.self),
               exact.magnitude > Self.exactDoubleIntegerLimit {
                self = .integer(exact)
            } else {
                self = .number(value)
            }
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
