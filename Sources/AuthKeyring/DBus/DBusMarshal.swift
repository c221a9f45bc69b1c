// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Writes D-Bus values in the wire format (little-endian), aligned as the specification says.
struct DBusWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func writeUInt32(_ value: UInt32) {
        align(4)
        bytes.append(contentsOf: Self.littleEndian(value))
    }

    /// `value`'s bytes, least significant first (the messages this writes say `l`).
    static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<Integer.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .bool(let flag): writeUInt32(flag ? 1 : 0)
        case .int32(let number): writeUInt32(UInt32(bitPattern: number))
        case .uint32(let number): writeUInt32(number)
        case .uint64(let number):
            align(8)
            bytes.append(contentsOf: Self.littleEndian(number))
        case .string(let text), .objectPath(let text):
            let utf8 = Array(text.utf8)
            writeUInt32(UInt32(utf8.count))
            bytes += utf8
            bytes.append(0)
        case .signature(let text):
            bytes.append(UInt8(text.utf8.count))
            bytes += text.utf8
            bytes.append(0)
        case .variant(let inner):
            write(.signature(inner.signature))
            write(inner)
        case .bytes(let content):
            writeUInt32(UInt32(content.count))
            bytes += content
        case .secret(let secret):
            writeUInt32(UInt32(secret.count))
            secret.withUnsafeBytes { bytes.append(contentsOf: $0) }
        case .byteRange:
            preconditionFailure("a byte range refers to a message read, and is never written")
        case .array(let element, let values):
            writeUInt32(0)
            let lengthAt = bytes.count - 4
            // The padding to the first element's boundary is not counted in the length.
            align(DBusSignature.alignment(of: element))
            let start = bytes.count
            for value in values { write(value) }
            bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: Self.littleEndian(UInt32(bytes.count - start)))
        case .structure(let fields):
            align(8)
            for field in fields { write(field) }
        case .dictEntry(let key, let value):
            align(8)
            write(key)
            write(value)
        }
    }

    /// Overwrites what was written with zeros (it held a secret).
    mutating func zero() { zeroize(&bytes) }
}

/// Reads D-Bus values from a message's bytes, by signature.
///
/// Every length is checked against what is left, so a malformed message gives a typed error,
/// never a crash or a read past the end.
struct DBusReader {
    let bytes: [UInt8]
    let littleEndian: Bool
    private(set) var offset: Int
    /// Where the alignment of the data counts from (the message's start).
    private let origin: Int
    private var depth = 0

    init(_ bytes: [UInt8], littleEndian: Bool, offset: Int = 0, origin: Int = 0) {
        self.bytes = bytes
        self.littleEndian = littleEndian
        self.offset = offset
        self.origin = origin
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func align(_ boundary: Int) throws {
        let padded = origin + (offset - origin + boundary - 1) / boundary * boundary
        guard padded <= bytes.count else { throw malformed("padding runs past the end") }
        offset = padded
    }

    private mutating func take(_ count: Int) throws -> Range<Int> {
        guard count >= 0, count <= bytes.count - offset else { throw malformed("a value runs past the end of the message") }
        defer { offset += count }
        return offset..<offset + count
    }

    mutating func readUInt32() throws -> UInt32 {
        try align(4)
        let range = try take(4)
        var value: UInt32 = 0
        for (shift, index) in (littleEndian ? Array(range) : range.reversed()).enumerated() {
            value |= UInt32(bytes[index]) << (8 * UInt32(shift))
        }
        return value
    }

    mutating func readUInt64() throws -> UInt64 {
        try align(8)
        let range = try take(8)
        var value: UInt64 = 0
        for (shift, index) in (littleEndian ? Array(range) : range.reversed()).enumerated() {
            value |= UInt64(bytes[index]) << (8 * UInt64(shift))
        }
        return value
    }

    private mutating func readString() throws -> String {
        let length = Int(try readUInt32())
        let range = try take(length)
        guard try take(1).first.map({ bytes[$0] }) == 0 else { throw malformed("a string lacks its terminating zero") }
        guard let text = String(validating: bytes[range], as: UTF8.self) else { throw malformed("a string is not UTF-8") }
        return text
    }

    private mutating func readSignature() throws -> String {
        let length = Int(bytes[try take(1).lowerBound])
        let range = try take(length)
        guard bytes[try take(1).lowerBound] == 0 else { throw malformed("a signature lacks its terminating zero") }
        guard let text = String(validating: bytes[range], as: UTF8.self) else { throw malformed("a signature is not ASCII") }
        return text
    }

    /// Reads every value of `signature`, in order.
    mutating func read(signature: String) throws -> [DBusValue] {
        var types = try DBusSignature.split(signature)[...]
        var values: [DBusValue] = []
        while let type = types.popFirst() { values.append(try read(type: type)) }
        return values
    }

    /// Reads one value of the single complete type `type`.
    mutating func read(type: Substring) throws -> DBusValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { throw malformed("values nest too deeply") }
        guard let code = type.first else { throw malformed("an empty type") }
        switch code {
        case "y": return .byte(bytes[try take(1).lowerBound])
        case "b":
            let value = try readUInt32()
            guard value <= 1 else { throw malformed("a boolean is neither 0 nor 1") }
            return .bool(value == 1)
        case "i": return .int32(Int32(bitPattern: try readUInt32()))
        case "u": return .uint32(try readUInt32())
        case "t": return .uint64(try readUInt64())
        case "x": return .uint64(try readUInt64())
        case "s": return .string(try readString())
        case "o": return .objectPath(try readString())
        case "g": return .signature(try readSignature())
        case "v":
            let inner = try readSignature()
            let types = try DBusSignature.split(inner)
            guard types.count == 1 else { throw malformed("a variant holds \(types.count) types") }
            return .variant(try read(type: types[0]))
        case "a":
            let element = type.dropFirst()
            let length = Int(try readUInt32())
            guard length <= 1 << 26 else { throw malformed("an array is longer than 64 MiB") }
            try align(DBusSignature.alignment(of: element))
            let end = offset + length
            guard end <= bytes.count else { throw malformed("an array runs past the end of the message") }
            if element == "y" { return .byteRange(try take(length)) }
            var values: [DBusValue] = []
            while offset < end { values.append(try read(type: element)) }
            guard offset == end else { throw malformed("an array's elements overrun its length") }
            return .array(element: String(element), values)
        case "(":
            try align(8)
            let types = try DBusSignature.split(type.dropFirst().dropLast())
            guard !types.isEmpty else { throw malformed("a structure has no fields") }
            var fields: [DBusValue] = []
            for field in types { fields.append(try read(type: field)) }
            return .structure(fields)
        case "{":
            try align(8)
            let parts = try DBusSignature.split(type.dropFirst().dropLast())
            guard parts.count == 2 else { throw malformed("a dictionary entry has \(parts.count) parts") }
            return .dictEntry(try read(type: parts[0]), try read(type: parts[1]))
        default:
            throw malformed("the type '\(code)' is not one this client reads")
        }
    }

    private func malformed(_ detail: String) -> KeyringError {
        KeyringError(code: .malformedAnswer, message: "a D-Bus message could not be read: \(detail)")
    }
}

/// Splitting and aligning D-Bus type signatures.
enum DBusSignature {
    /// The single complete types of `signature`, in order.
    static func split(_ signature: some StringProtocol) throws -> [Substring] {
        let text = Substring(signature)
        var types: [Substring] = []
        var index = text.startIndex
        while index < text.endIndex {
            let end = try completeType(in: text, at: index)
            types.append(text[index..<end])
            index = end
        }
        return types
    }

    /// Where the single complete type starting at `start` ends.
    private static func completeType(in text: Substring, at start: Substring.Index) throws -> Substring.Index {
        var index = start
        // Array prefixes, then one type.
        while index < text.endIndex, text[index] == "a" { index = text.index(after: index) }
        guard index < text.endIndex else { throw invalid(text) }
        let opener = text[index]
        guard opener == "(" || opener == "{" else { return text.index(after: index) }
        let closer: Character = opener == "(" ? ")" : "}"
        var level = 0
        while index < text.endIndex {
            if text[index] == opener { level += 1 } else if text[index] == closer { level -= 1 }
            index = text.index(after: index)
            if level == 0 { return index }
        }
        throw invalid(text)
    }

    private static func invalid(_ text: Substring) -> KeyringError {
        KeyringError(code: .malformedAnswer, message: "the D-Bus signature '\(text)' is not valid")
    }

    /// The alignment of a value of the single complete type `type`.
    static func alignment(of type: some StringProtocol) -> Int {
        switch type.first {
        case "y", "g", "v": 1
        case "b", "i", "u", "s", "o", "a": 4
        case "t", "x", "d", "(", "{": 8
        default: 1
        }
    }
}
