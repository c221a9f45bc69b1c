// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthKeyring
import Testing

/// The D-Bus wire format of the few signatures the Secret Service needs, and malformed input.
struct DBusMessageTests {
    /// A reply as a bus would send it: the header of a method return, then `body`.
    private func reply(_ body: [DBusValue], replySerial: UInt32 = 7) -> [UInt8] {
        var bodyWriter = DBusWriter()
        for value in body { bodyWriter.write(value) }
        var writer = DBusWriter()
        for byte: UInt8 in [UInt8(ascii: "l"), 2, 0, 1] { writer.write(.byte(byte)) }
        writer.writeUInt32(UInt32(bodyWriter.bytes.count))
        writer.writeUInt32(99)
        writer.write(.array(element: "(yv)", [
            .structure([.byte(5), .variant(.uint32(replySerial))]),
            .structure([.byte(8), .variant(.signature(body.map(\.signature).joined()))]),
        ]))
        writer.align(8)
        return writer.bytes + bodyWriter.bytes
    }

    @Test func aSecretStructAndAttributesRoundTrip() throws {
        let secret = KeyringSecret(bytes: [0, 1, 2, 200, 255])
        let bytes = reply([
            .structure([.objectPath("/org/freedesktop/secrets/session/s1"), .bytes([]), .secret(secret), .string("application/octet-stream")]),
            .stringDictionary(["service": "dev.authkit", "account": "älice"]),
            .variant(.uint64(1_700_000_000)),
        ])
        #expect(try DBusMessage.length(ofMessageStartingWith: Array(bytes[0..<16])) == bytes.count)
        let message = try DBusMessage(bytes: bytes)
        #expect(message.kind == .methodReturn)
        #expect(message.replySerial == 7)
        #expect(message.signature == "(oayays)a{ss}v")
        guard case .structure(let fields) = message.body[0], case .byteRange(let range) = fields[2] else {
            Issue.record("no secret struct")
            return
        }
        #expect(Array(message.bytes(in: range)) == [0, 1, 2, 200, 255])
        #expect(fields[3].stringValue == "application/octet-stream")
        guard case .array(_, let entries) = message.body[1] else { Issue.record("no dictionary"); return }
        #expect(entries.count == 2)
        #expect(message.body[2].uint64Value == 1_700_000_000)
        message.zero()
        #expect(message.bytes(in: range).allSatisfy { $0 == 0 })
    }

    @Test func aMethodCallCarriesItsHeaderFields() throws {
        let bytes = DBusMessage.methodCall(serial: 3, destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service", member: "SearchItems", body: [.stringDictionary(["a": "b"])])
        let message = try DBusMessage(bytes: bytes)
        #expect(message.kind == .methodCall)
        #expect(message.serial == 3)
        #expect(message.path == "/org/freedesktop/secrets")
        #expect(message.interface == "org.freedesktop.Secret.Service")
        #expect(message.member == "SearchItems")
        #expect(message.signature == "a{ss}")
    }

    @Test func everyTruncationAndEveryByteFlipIsATypedErrorNeverACrash() throws {
        let bytes = reply([
            .structure([.objectPath("/s"), .bytes([1, 2]), .bytes([3, 4, 5]), .string("text/plain")]),
            .objectPaths(["/a", "/b"]),
            .variant(.bool(true)),
        ])
        for length in 0..<bytes.count {
            #expect(throws: KeyringError.self) { try DBusMessage(bytes: Array(bytes[0..<length])) }
        }
        // A changed byte gives a message or a typed error: never a trap, never a read past the end.
        for index in bytes.indices {
            for value: UInt8 in [0, 0x7f, 0xff] {
                var changed = bytes
                changed[index] = value
                do { _ = try DBusMessage(bytes: changed) } catch is KeyringError {} catch {
                    Issue.record("byte \(index) = \(value): \(error)")
                }
            }
        }
    }

    @Test func aMessageOverTheLimitIsRefusedFromItsHeader() {
        var head = reply([.string("x")])
        head.replaceSubrange(4..<8, with: [0, 0, 0, 0x10])  // a body of 256 MiB
        #expect(throws: KeyringError.self) { try DBusMessage.length(ofMessageStartingWith: Array(head[0..<16])) }
    }

    @Test func busAddressesParse() throws {
        #expect(try DBusAddress.parse("unix:path=/run/user/1000/bus") == [.path("/run/user/1000/bus")])
        #expect(try DBusAddress.parse("tcp:host=x,port=1;unix:abstract=/tmp/dbus-AbC,guid=00ff") == [.abstract("/tmp/dbus-AbC")])
        #expect(try DBusAddress.parse("unix:path=/tmp/with%20space") == [.path("/tmp/with space")])
        #expect(throws: KeyringError.self) { try DBusAddress.parse("unix:path=/tmp/%zz") }
        #expect(try DBusAddress.sessionBus(environment: ["XDG_RUNTIME_DIR": "/run/user/5"]) == [.path("/run/user/5/bus")])
        #expect { try DBusAddress.sessionBus(environment: [:]) } throws: { ($0 as? KeyringError)?.code == .serviceUnavailable }
    }

    #if os(Linux)
    @Test func errorRepliesMapToTheirCodes() {
        func code(_ name: String) -> KeyringError.Code {
            SecretServiceConversation.keyringError(DBusCallError(name: name, text: "", member: "M")).code
        }
        #expect(code("org.freedesktop.DBus.Error.ServiceUnknown") == .serviceUnavailable)
        #expect(code("org.freedesktop.Secret.Error.IsLocked") == .locked)
        #expect(code("org.freedesktop.DBus.Error.AccessDenied") == .denied)
        #expect(code("org.freedesktop.DBus.Error.NoReply") == .timeout)
        #expect(code("org.example.Other") == .failed)
    }
    #endif
}
