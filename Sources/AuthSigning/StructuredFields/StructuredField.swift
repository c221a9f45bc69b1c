// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// RFC 8941 structured field values: the subset of types that HTTP Message Signatures
/// (RFC 9421) and Content-Digest (RFC 9530) use, with a strict parser and a serializer.
///
/// ```swift
/// let dictionary = try StructuredField.parseDictionary(#"sig1=("@method");created=1618884473"#)
/// let text = dictionary.serialized   // the same text
/// ```
public enum StructuredField {
    /// A bare item: integer, decimal, string, token, byte sequence or boolean.
    public enum BareItem: Sendable, Hashable {
        /// An integer of at most 15 digits.
        case integer(Int64)
        /// A decimal with at most 12 integer and 3 fractional digits.
        case decimal(Double)
        /// A quoted string of printable ASCII.
        case string(String)
        /// A token such as `sha-256` or `*foo`.
        case token(String)
        /// Bytes, written as `:base64:`.
        case byteSequence(Data)
        /// `?1` or `?0`.
        case boolean(Bool)
    }

    /// An ordered list of `;key=value` parameters (a key appears at most once).
    public struct Parameters: Sendable, Hashable, ExpressibleByArrayLiteral {
        /// The parameters in order.
        public private(set) var entries: [(key: String, value: BareItem)]

        /// Creates parameters from `(key, value)` pairs; a later duplicate key overwrites the
        /// value in place.
        public init(_ entries: [(key: String, value: BareItem)] = []) {
            self.entries = []
            for entry in entries { self[entry.key] = entry.value }
        }

        /// Creates parameters from a literal list.
        public init(arrayLiteral elements: (key: String, value: BareItem)...) { self.init(elements) }

        /// The value of `key`, or `nil`; setting `nil` removes it.
        public subscript(key: String) -> BareItem? {
            get { entries.first { $0.key == key }?.value }
            set {
                if let index = entries.firstIndex(where: { $0.key == key }) {
                    if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
                } else if let newValue {
                    entries.append((key, newValue))
                }
            }
        }

        /// Whether there are no parameters.
        public var isEmpty: Bool { entries.isEmpty }

        /// Equal when the same keys have the same values in the same order.
        public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
            lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
        }

        /// Hashes keys and values in order.
        public func hash(into hasher: inout Hasher) {
            for entry in entries {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
        }
    }

    /// A bare item with parameters.
    public struct Item: Sendable, Hashable {
        /// The value.
        public var bareItem: BareItem
        /// Its parameters.
        public var parameters: Parameters
        /// Creates an item.
        public init(_ bareItem: BareItem, parameters: Parameters = []) {
            self.bareItem = bareItem
            self.parameters = parameters
        }
    }

    /// A parenthesised list of items, with parameters of its own.
    public struct InnerList: Sendable, Hashable {
        /// The items.
        public var items: [Item]
        /// The list's parameters.
        public var parameters: Parameters
        /// Creates an inner list.
        public init(_ items: [Item], parameters: Parameters = []) {
            self.items = items
            self.parameters = parameters
        }
    }

    /// A dictionary or list member: an item or an inner list.
    public enum Member: Sendable, Hashable {
        /// A single item.
        case item(Item)
        /// An inner list.
        case innerList(InnerList)
    }

    /// An ordered dictionary of members keyed by RFC 8941 keys.
    public struct Dictionary: Sendable, Hashable {
        /// The members in order.
        public var entries: [(key: String, member: Member)]

        /// Creates a dictionary.
        public init(_ entries: [(key: String, member: Member)] = []) { self.entries = entries }

        /// The member for `key`, or `nil`.
        public subscript(key: String) -> Member? { entries.first { $0.key == key }?.member }

        /// Equal when the same keys have the same members in the same order.
        public static func == (lhs: Dictionary, rhs: Dictionary) -> Bool {
            lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.member == $1.member }
        }

        /// Hashes keys and values in order.
        public func hash(into hasher: inout Hasher) {
            for entry in entries {
                hasher.combine(entry.key)
                hasher.combine(entry.member)
            }
        }
    }
}
