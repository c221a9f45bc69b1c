// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import RawStructuredFieldValues

extension StructuredField {
    /// Parses a dictionary field value (RFC 8941 §4.2.2), such as `Signature-Input`.
    /// - Throws: ``SigningError`` for anything that is not a valid dictionary.
    public static func parseDictionary(_ text: String) throws(SigningError) -> Dictionary {
        let map = try parse(text, as: "dictionary") { try $0.parseDictionaryFieldValue() }
        var dictionary = Dictionary()
        for (key, member) in map { dictionary.entries.append((key, try Member(member))) }
        return dictionary
    }

    /// Parses a list field value (RFC 8941 §4.2.1): items and inner lists.
    /// - Throws: ``SigningError`` for anything that is not a valid list.
    public static func parseList(_ text: String) throws(SigningError) -> [Member] {
        let list = try parse(text, as: "list") { try $0.parseListFieldValue() }
        var members: [Member] = []
        for member in list { members.append(try Member(member)) }
        return members
    }

    /// Parses an item field value (RFC 8941 §4.2.3).
    /// - Throws: ``SigningError`` for anything that is not a valid item.
    public static func parseItem(_ text: String) throws(SigningError) -> Item {
        try Item(parse(text, as: "item") { try $0.parseItemFieldValue() })
    }

    /// Runs apple's swift-http-structured-headers parser over the UTF-8 of `text`.
    private static func parse<T>(
        _ text: String, as kind: String, _ body: (inout StructuredFieldValueParser<[UInt8]>) throws -> T
    ) throws(SigningError) -> T {
        var parser = StructuredFieldValueParser(Array(text.utf8))
        do {
            return try body(&parser)
        } catch {
            throw SigningError.invalidStructuredField("not a valid structured \(kind) (\(error))")
        }
    }
}

extension StructuredField.Member {
    init(_ member: ItemOrInnerList) throws(SigningError) {
        switch member {
        case .item(let item): self = .item(try StructuredField.Item(item))
        case .innerList(let list):
            var items: [StructuredField.Item] = []
            for item in list.bareInnerList { items.append(try StructuredField.Item(item)) }
            self = .innerList(StructuredField.InnerList(items, parameters: try StructuredField.Parameters(list.rfc9651Parameters)))
        }
    }
}

extension StructuredField.Item {
    init(_ item: RawStructuredFieldValues.Item) throws(SigningError) {
        self.init(try StructuredField.BareItem(item.rfc9651BareItem), parameters: try StructuredField.Parameters(item.rfc9651Parameters))
    }
}

extension StructuredField.Parameters {
    init(_ map: OrderedMap<String, RFC9651BareItem>) throws(SigningError) {
        var entries: [(String, StructuredField.BareItem)] = []
        for (key, value) in map { entries.append((key, try StructuredField.BareItem(value))) }
        self.init(entries)
    }
}

extension StructuredField.BareItem {
    /// An RFC 8941 bare item; RFC 9651's dates and display strings are not RFC 8941 values.
    init(_ item: RFC9651BareItem) throws(SigningError) {
        switch item {
        case .bool(let value): self = .boolean(value)
        case .integer(let value): self = .integer(value)
        case .decimal(let value): self = .decimal(Self.double(value))
        case .string(let value): self = .string(value)
        case .token(let value): self = .token(value)
        case .undecodedByteSequence(let base64): self = .byteSequence(try Self.decode(base64))
        case .date, .displayString:
            throw SigningError.invalidStructuredField("a date or display string (RFC 9651) is not an RFC 8941 value")
        }
    }

    /// The decimal as the `Double` nearest to it, whatever its spelling: the mantissa divided by a
    /// power of ten (at most 10³, exact), one correctly rounded operation. `1.2` and `1.200` are
    /// then the same value, and a parsed value serializes to text that parses back equal (the
    /// library's `Double(PseudoDecimal)` multiplies by 10⁻ⁿ, and `12 × 0.1 ≠ 1200 × 0.001`: found
    /// by the fuzzer).
    static func double(_ decimal: PseudoDecimal) -> Double {
        let exponent = Int(decimal.exponent)
        var scale = 1.0
        for _ in 0..<exponent.magnitude { scale *= 10 }
        return exponent >= 0 ? Double(decimal.mantissa) * scale : Double(decimal.mantissa) / scale
    }

    /// The bytes of a byte sequence's base64; the `=` padding may be left out (RFC 8941 §4.2.7:
    /// parsers should not fail when it is).
    static func decode(_ base64: String) throws(SigningError) -> Data {
        var padded = base64
        if !padded.utf8.contains(UInt8(ascii: "=")), padded.utf8.count % 4 > 1 {
            padded += String(repeating: "=", count: 4 - padded.utf8.count % 4)
        }
        guard let data = Data(base64Encoded: padded) else {
            throw SigningError.invalidStructuredField("a byte sequence is not valid base64")
        }
        return data
    }
}
