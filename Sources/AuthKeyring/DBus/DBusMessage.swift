// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// One D-Bus message: a method call this client sends, or a reply, error or signal it reads.
///
/// A message read keeps its bytes in one buffer (``bytes``), which ``zero()`` overwrites once a
/// secret was taken out of it.
final class DBusMessage {
    enum Kind: UInt8 {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    let kind: Kind
    let serial: UInt32
    let replySerial: UInt32?
    let path: String?
    let interface: String?
    let member: String?
    let errorName: String?
    let sender: String?
    let signature: String
    /// The body's values; an `ay` among them is a ``DBusValue/byteRange(_:)`` into ``bytes``.
    let body: [DBusValue]
    private(set) var bytes: [UInt8]

    /// The largest message this client reads (the specification's limit is 128 MiB; the Secret
    /// Service's answers to this client are a few kilobytes).
    static let maximumLength = 1 << 20

    /// Encodes a method call.
    static func methodCall(serial: UInt32, destination: String?, path: String, interface: String?, member: String, body: [DBusValue]) -> [UInt8] {
        var fields: [DBusValue] = [.structure([.byte(1), .variant(.objectPath(path))])]
        if let interface { fields.append(.structure([.byte(2), .variant(.string(interface))])) }
        fields.append(.structure([.byte(3), .variant(.string(member))]))
        if let destination { fields.append(.structure([.byte(6), .variant(.string(destination))])) }
        let signature = body.map(\.signature).joined()
        if !signature.isEmpty { fields.append(.structure([.byte(8), .variant(.signature(signature))])) }

        var bodyWriter = DBusWriter()
        // The body's alignment counts from the message's start, which the header pads to 8.
        for value in body { bodyWriter.write(value) }
        var writer = DBusWriter(reservingCapacity: 128 + bodyWriter.bytes.count)
        writer.write(.byte(UInt8(ascii: "l")))
        writer.write(.byte(Kind.methodCall.rawValue))
        writer.write(.byte(0))  // flags
        writer.write(.byte(1))  // protocol version
        writer.writeUInt32(UInt32(bodyWriter.bytes.count))
        writer.writeUInt32(serial)
        writer.write(.array(element: "(yv)", fields))
        writer.align(8)
        var message = writer.bytes
        message += bodyWriter.bytes
        bodyWriter.zero()
        return message
    }

    /// The length of the whole message whose first 16 bytes are `head`.
    static func length(ofMessageStartingWith head: [UInt8]) throws -> Int {
        guard head.count >= 16 else { throw malformed("a message header is shorter than 16 bytes") }
        let little: Bool
        switch head[0] {
        case UInt8(ascii: "l"): little = true
        case UInt8(ascii: "B"): little = false
        default: throw malformed("a message starts with an unknown byte order mark")
        }
        var reader = DBusReader(head, littleEndian: little, offset: 4)
        let bodyLength = Int(try reader.readUInt32())
        _ = try reader.readUInt32()
        let fieldsLength = Int(try reader.readUInt32())
        guard bodyLength <= maximumLength, fieldsLength <= maximumLength else {
            throw malformed("a message is longer than this client reads (\(maximumLength) bytes)")
        }
        let headerLength = (16 + fieldsLength + 7) / 8 * 8
        return headerLength + bodyLength
    }

    /// Decodes a whole message.
    init(bytes: [UInt8]) throws {
        self.bytes = bytes
        guard let mark = bytes.first, mark == UInt8(ascii: "l") || mark == UInt8(ascii: "B") else {
            throw Self.malformed("a message starts with an unknown byte order mark")
        }
        let little = mark == UInt8(ascii: "l")
        var reader = DBusReader(bytes, littleEndian: little, offset: 1)
        guard case .byte(let rawKind) = try reader.read(type: "y") else { throw Self.malformed("no message type") }
        // An unknown type is to be ignored; it is read as a signal no one waits for.
        kind = Kind(rawValue: rawKind) ?? .signal
        _ = try reader.read(type: "y")  // flags
        _ = try reader.read(type: "y")  // version
        let bodyLength = Int(try reader.readUInt32())
        serial = try reader.readUInt32()
        guard case .array(_, let fields) = try reader.read(type: "a(yv)") else { throw Self.malformed("no header fields") }
        var path: String?, interface: String?, member: String?, errorName: String?, sender: String?
        var replySerial: UInt32?, signature = ""
        for field in fields {
            guard case .structure(let parts) = field, parts.count == 2, case .byte(let code) = parts[0],
                  case .variant(let value) = parts[1] else { throw Self.malformed("a header field is not (yv)") }
            switch (code, value) {
            case (1, .objectPath(let text)): path = text
            case (2, .string(let text)): interface = text
            case (3, .string(let text)): member = text
            case (4, .string(let text)): errorName = text
            case (5, .uint32(let number)): replySerial = number
            case (7, .string(let text)): sender = text
            case (8, .signature(let text)): signature = text
            default: break
            }
        }
        try reader.align(8)
        guard bytes.count - reader.offset == bodyLength else { throw Self.malformed("the body's length does not match its header") }
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.sender = sender
        self.replySerial = replySerial
        self.signature = signature
        var bodyReader = DBusReader(bytes, littleEndian: little, offset: reader.offset, origin: reader.offset)
        body = try bodyReader.read(signature: signature)
    }

    /// The bytes of an `ay` of the body.
    func bytes(in range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

    /// Overwrites the message's bytes with zeros (a secret was read from it).
    func zero() { zeroize(&bytes) }

    deinit { zero() }

    /// The text of an error reply (its first string), for the error's message; nil otherwise.
    var errorText: String? {
        guard kind == .error, let first = body.first else { return nil }
        return first.stringValue
    }

    private static func malformed(_ detail: String) -> KeyringError {
        KeyringError(code: .malformedAnswer, message: "a D-Bus message could not be read: \(detail)")
    }
}
