// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A strict JSON reader (RFC 8259) into ``JSONValue``, linear in its input's size.
///
/// It reads each byte once, with no backtracking and no per-type retries, so hostile input costs
/// time in proportion to its length. Unlike `JSONDecoder` it also:
/// - refuses arrays and objects nested deeper than `maximumDepth` (the outermost counts as 1);
/// - refuses an object that names a member twice (names compared as Swift strings, so two
///   canonically equivalent spellings are the same name), rather than silently keeping one value;
/// - keeps integers beyond ±2^53 exact as ``JSONValue/integer(_:)``.
///
/// ``JWT`` uses it for the header and the claims; it is internal so that its failures stay
/// ``JWTError``s at the public surface.
struct JSONReader {
    /// Why the input was refused.
    enum Failure: Error, Equatable {
        /// Not JSON, or not the expected top-level type.
        case invalid
        /// Nested deeper than the limit.
        case tooDeep
        /// An object named a member twice.
        case duplicateMember
    }

    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0

    private init(_ bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Reads `bytes` as one JSON object, optionally surrounded by whitespace.
    static func object(_ bytes: [UInt8], maximumDepth: Int) throws(Failure) -> [String: JSONValue] {
        var reader = JSONReader(bytes, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        guard reader.peek == UInt8(ascii: "{") else { throw .invalid }
        let object = try reader.object(depth: 1)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw .invalid }
        return object
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Consumes `byte`, or fails.
    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek == byte else { throw .invalid }
        index += 1
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let byte = peek else { throw .invalid }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw .invalid
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw .invalid }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw .invalid }
        index += count
    }

    private mutating func object(depth: Int) throws(Failure) -> [String: JSONValue] {
        guard depth <= maximumDepth else { throw .tooDeep }
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw .invalid }
            let name = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            let member = try value(depth: depth)
            guard members.updateValue(member, forKey: name) == nil else { throw .duplicateMember }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "}")?: index += 1; return members
            default: throw .invalid
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> [JSONValue] {
        guard depth <= maximumDepth else { throw .tooDeep }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ",")?: index += 1
            case UInt8(ascii: "]")?: index += 1; return elements
            default: throw .invalid
            }
        }
    }

    /// A string; `index` is at its opening quote.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while let byte = peek, byte != UInt8(ascii: "\\") {
            if byte == UInt8(ascii: "\"") {
                let text = try Self.text(bytes[start..<index])
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw .invalid }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.text(buffer[...])
            case UInt8(ascii: "\\"):
                try escape(into: &buffer)
            case ..<0x20:
                throw .invalid
            default:
                buffer.append(byte)
            }
        }
        throw .invalid
    }

    /// An escape sequence after its backslash, appended to `buffer` as UTF-8.
    private mutating func escape(into buffer: inout [UInt8]) throws(Failure) {
        guard let byte = peek else { throw .invalid }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                try expect(UInt8(ascii: "\\"))
                try expect(UInt8(ascii: "u"))
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw .invalid }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            // A lone low surrogate is not a scalar.
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalid }
            UTF8.encode(unicode) { buffer.append($0) }
        default:
            throw .invalid
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw .invalid }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static func text(_ utf8: ArraySlice<UInt8>) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalid }
        return text
    }

    private var atDigit: Bool { peek.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }

    private mutating func digits() throws(Failure) {
        guard atDigit else { throw .invalid }
        while atDigit { index += 1 }
    }

    /// A number: `.integer` for an integer beyond ±2^53 that fits in Int64, else `.number`.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") { index += 1 } else { try digits() }
        var integral = true
        if peek == UInt8(ascii: ".") {
            integral = false
            index += 1
            try digits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            integral = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let integer = Int64(text) {
            return integer.magnitude > JSONValue.exactDoubleIntegerLimit ? .integer(integer) : .number(Double(integer))
        }
        guard let number = Double(text), number.isFinite else { throw .invalid }
        return .number(number)
    }
}
