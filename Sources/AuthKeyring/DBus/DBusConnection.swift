// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection to a D-Bus bus over its Unix socket: SASL `EXTERNAL` authentication (the
/// kernel tells the bus who this process is), then method calls and their replies.
///
/// Blocking and single-threaded on purpose: ``SecretServiceKeyring`` runs one connection on a
/// Dispatch queue of its own for a few calls, then closes it. Every read and write waits at most
/// until the deadline given, so a bus or service that stops answering gives a typed error.
final class DBusConnection {
    private let socket: Int32
    private var serial: UInt32 = 0
    /// Bytes read but not yet taken as a message; room reserved up front, so that a secret in
    /// it is not left behind in a buffer freed on growth.
    private var pending: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        return bytes
    }()
    /// Signals that arrived while waiting for a reply.
    private var signals: [DBusMessage] = []
    private var closed = false

    /// Connects to the first address that answers and authenticates.
    /// - Throws: `KeyringError` `.serviceUnavailable` when no bus answers, `.denied` when the
    ///   bus refuses this process.
    init(addresses: [DBusAddress], deadline: ContinuousClock.Instant) throws {
        var lastError: KeyringError?
        var connected: Int32?
        for address in addresses {
            do {
                connected = try Self.connect(to: address)
                break
            } catch let error as KeyringError {
                lastError = error
            }
        }
        guard let connected else {
            throw lastError ?? KeyringError(code: .serviceUnavailable, message: "no D-Bus address to connect to")
        }
        socket = connected
        do {
            try authenticate(deadline: deadline)
            _ = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello", deadline: deadline)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(socket)
        zeroize(&pending)
    }

    private static func connect(to address: DBusAddress) throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw KeyringError(code: .serviceUnavailable, message: "no socket for the D-Bus session bus (errno \(errno))")
        }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var name: [UInt8]
        switch address {
        case .path(let path): name = Array(path.utf8)
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard name.count < capacity else {
            Glibc.close(descriptor)
            throw KeyringError(code: .serviceUnavailable, message: "the D-Bus socket name is longer than a Unix socket address holds: \(address.description)")
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { buffer in
            buffer.copyBytes(from: name)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1))
        let result = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw KeyringError(code: .serviceUnavailable, message: "no D-Bus session bus answers at \(address.description) (\(String(cString: strerror(code))))")
        }
        return descriptor
    }

    // MARK: - Authentication

    private func authenticate(deadline: ContinuousClock.Instant) throws {
        let uid = String(getuid())
        let hexUID = uid.utf8.map { String(format: "%02x", $0) }.joined()
        try send([0] + Array("AUTH EXTERNAL \(hexUID)\r\n".utf8), deadline: deadline)
        let answer = try readLine(deadline: deadline)
        guard answer.hasPrefix("OK ") else {
            throw KeyringError(code: .denied, message: "the D-Bus session bus refused this process (its answer to AUTH EXTERNAL: \(answer.prefix(80)))")
        }
        try send(Array("BEGIN\r\n".utf8), deadline: deadline)
    }

    private func readLine(deadline: ContinuousClock.Instant) throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                pending.removeSubrange(...newline)
                return line
            }
            guard pending.count < 4096 else { throw KeyringError(code: .malformedAnswer, message: "the D-Bus bus sent an authentication line over 4 KiB") }
            try receive(deadline: deadline)
        }
    }

    // MARK: - Calls

    /// Calls a method and returns its reply; signals that arrive meanwhile are kept for
    /// ``waitForSignal(path:interface:member:deadline:)``.
    /// - Throws: ``DBusCallError`` for an error reply; `KeyringError` when the bus fails.
    @discardableResult
    func call(destination: String?, path: String, interface: String?, member: String, body: [DBusValue] = [], deadline: ContinuousClock.Instant) throws -> DBusMessage {
        serial &+= 1
        if serial == 0 { serial = 1 }
        let callSerial = serial
        var message = DBusMessage.methodCall(serial: callSerial, destination: destination, path: path, interface: interface, member: member, body: body)
        defer { zeroize(&message) }
        try send(message, deadline: deadline)
        while true {
            let reply = try readMessage(deadline: deadline)
            switch reply.kind {
            case .methodReturn where reply.replySerial == callSerial:
                return reply
            case .error where reply.replySerial == callSerial:
                throw DBusCallError(name: reply.errorName ?? "org.freedesktop.DBus.Error.Failed", text: reply.errorText ?? "", member: member)
            case .signal:
                signals.append(reply)
            default:
                continue  // a reply to another call, or a call to this client: neither is expected
            }
        }
    }

    /// Waits for a signal from `path`.
    func waitForSignal(path: String, interface: String, member: String, deadline: ContinuousClock.Instant) throws -> DBusMessage {
        while true {
            if let index = signals.firstIndex(where: { $0.path == path && $0.interface == interface && $0.member == member }) {
                return signals.remove(at: index)
            }
            let message = try readMessage(deadline: deadline)
            if message.kind == .signal { signals.append(message) }
        }
    }

    private func readMessage(deadline: ContinuousClock.Instant) throws -> DBusMessage {
        while pending.count < 16 { try receive(deadline: deadline) }
        let length = try DBusMessage.length(ofMessageStartingWith: Array(pending[0..<16]))
        while pending.count < length { try receive(deadline: deadline) }
        let bytes = Array(pending[0..<length])
        // The bytes read may hold a secret: zeroed here, kept only in the message, which zeroes
        // them when it is done.
        pending.withUnsafeMutableBytes { memsetZero(UnsafeMutableRawBufferPointer(rebasing: $0[0..<length])) }
        pending.removeSubrange(0..<length)
        return try DBusMessage(bytes: bytes)
    }

    // MARK: - Socket

    private func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws {
        var offset = 0
        while offset < bytes.count {
            try waitUntilReady(events: Int16(POLLOUT), deadline: deadline)
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.send(socket, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw KeyringError(code: .serviceUnavailable, message: "the D-Bus connection failed while sending (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
    }

    private func receive(deadline: ContinuousClock.Instant) throws {
        try waitUntilReady(events: Int16(POLLIN), deadline: deadline)
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { zeroize(&buffer) }
        let count = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw KeyringError(code: .serviceUnavailable, message: "the D-Bus connection failed while reading (\(String(cString: strerror(errno))))")
        }
        guard count > 0 else { throw KeyringError(code: .serviceUnavailable, message: "the D-Bus session bus closed the connection") }
        pending.append(contentsOf: buffer[0..<count])
    }

    private func waitUntilReady(events: Int16, deadline: ContinuousClock.Instant) throws {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw KeyringError(code: .timeout, message: "the D-Bus session bus or the Secret Service did not answer in time")
            }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw KeyringError(code: .serviceUnavailable, message: "waiting on the D-Bus connection failed (\(String(cString: strerror(errno))))")
            }
        }
    }
}

/// An error reply to a D-Bus method call.
struct DBusCallError: Error {
    /// The error's D-Bus name, such as `org.freedesktop.Secret.Error.IsLocked`.
    let name: String
    /// The text the service sent with it (free of secrets: this client sends none in a way a
    /// service would echo).
    let text: String
    /// The method called.
    let member: String
}
#endif
