// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension StructuredField.BareItem {
    /// The RFC 8941 text of this value (§4.1.3 to §4.1.9).
    public var serialized: String {
        switch self {
        case .integer(let value):
            return String(value)
        case .decimal(let value):
            let rounded = (value * 1000).rounded(.toNearestOrEven) / 1000
            var text = String(format: "%.3f", rounded)
            while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
            return text
        case .string(let value):
            guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else { return "\"\(value)\"" }
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
            return String(decoding: out, as: UTF8.self)
        case .token(let value):
            return value
        case .byteSequence(let value):
            return ":" + value.base64EncodedString() + ":"
        case .boolean(let value):
            return value ? "?1" : "?0"
        }
    }
}

extension StructuredField.Parameters {
    /// `;key=value…`, with `=?1` left out for true booleans.
    public var serialized: String {
        var text = ""
        for entry in entries {
            text += ";"
            text += entry.key
            if entry.value != .boolean(true) {
                text += "="
                text += entry.value.serialized
            }
        }
        return text
    }
}

extension StructuredField.Item {
    /// The item and its parameters.
    public var serialized: String { bareItem.serialized + parameters.serialized }
}

extension StructuredField.InnerList {
    /// `(item item);params`.
    public var serialized: String {
        "(" + items.map(\.serialized).joined(separator: " ") + ")" + parameters.serialized
    }
}

extension StructuredField.Member {
    /// The item or inner list.
    public var serialized: String {
        switch self {
        case .item(let item): item.serialized
        case .innerList(let list): list.serialized
        }
    }
}

extension StructuredField.Dictionary {
    /// `key=member, key=member`, with `=?1` left out for true booleans.
    public var serialized: String {
        entries.map { entry in
            if case .item(let item) = entry.member, item.bareItem == .boolean(true) {
                return entry.key + item.parameters.serialized
            }
            return entry.key + "=" + entry.member.serialized
        }.joined(separator: ", ")
    }
}

extension StructuredField {
    /// Whether `text` is a valid RFC 8941 key (`[a-z*][a-z0-9_\-.*]*`).
    public static func isValidKey(_ text: String) -> Bool {
        guard let first = text.utf8.first, (first >= 0x61 && first <= 0x7A) || first == UInt8(ascii: "*") else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "*"): true
            default: false
            }
        }
    }

    /// Whether `text` can be a string item (printable ASCII only).
    public static func isValidString(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }
}
