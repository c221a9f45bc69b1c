// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A value of the D-Bus type system, as far as the Secret Service API needs it.
///
/// A secret's bytes (`ay`) never pass through an array the caller cannot zero: written from a ``KeyringSecret``'s own storage (`secret`), read as a range
/// of the message's body (`byteRange`), which ``DBusMessage`` zeroes when it is done.
indirect enum DBusValue: Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case uint64(UInt64)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// An `ay` to write.
    case bytes([UInt8])
    /// An `ay` to write from a secret's storage.
    case secret(KeyringSecret)
    /// An `ay` read: where its bytes are in the message's body.
    case byteRange(Range<Int>)
    /// An array whose elements have the signature `element`.
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)

    /// The value's type signature.
    var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int32: "i"
        case .uint32: "u"
        case .uint64: "t"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .bytes, .secret, .byteRange: "ay"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        }
    }

    /// A dictionary `a{ss}` (the Secret Service's item attributes).
    static func stringDictionary(_ pairs: [String: String]) -> DBusValue {
        .array(element: "{ss}", pairs.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// An array of object paths `ao`.
    static func objectPaths(_ paths: [String]) -> DBusValue {
        .array(element: "o", paths.map(DBusValue.objectPath))
    }

    var stringValue: String? {
        switch self {
        case .string(let value), .objectPath(let value), .signature(let value): value
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    var uint64Value: UInt64? {
        switch self {
        case .uint64(let value): value
        case .uint32(let value): UInt64(value)
        case .variant(let inner): inner.uint64Value
        default: nil
        }
    }

    /// The object paths of an `ao`.
    var objectPathList: [String]? {
        guard case .array(_, let elements) = self else { return nil }
        var paths: [String] = []
        for element in elements {
            guard case .objectPath(let path) = element else { return nil }
            paths.append(path)
        }
        return paths
    }
}
