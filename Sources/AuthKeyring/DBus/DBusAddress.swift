// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Where the session bus listens, from a D-Bus address such as
/// `unix:path=/run/user/1000/bus` or `unix:abstract=/tmp/dbus-XXXX,guid=…`.
enum DBusAddress: Equatable {
    /// A socket file.
    case path(String)
    /// A Linux abstract socket name.
    case abstract(String)

    /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` where it exists.
    /// - Throws: `KeyringError` `.serviceUnavailable` when there is neither.
    static func sessionBus(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [DBusAddress] {
        if let text = environment["DBUS_SESSION_BUS_ADDRESS"], !text.isEmpty {
            let addresses = try parse(text)
            guard !addresses.isEmpty else {
                throw KeyringError(code: .serviceUnavailable, message: "DBUS_SESSION_BUS_ADDRESS names no Unix socket this client can use ('\(text)')")
            }
            return addresses
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return [.path(runtime + "/bus")]
        }
        throw KeyringError(code: .serviceUnavailable, message: "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset (is this a desktop session?)")
    }

    /// The Unix socket addresses of a `;`-separated address list, in order; others are skipped.
    static func parse(_ text: String) throws -> [DBusAddress] {
        var addresses: [DBusAddress] = []
        for entry in text.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
            var pairs: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                pairs[String(pair[..<equals])] = try unescape(pair[pair.index(after: equals)...])
            }
            if let path = pairs["path"] {
                addresses.append(.path(path))
            } else if let name = pairs["abstract"] {
                addresses.append(.abstract(name))
            }
        }
        return addresses
    }

    /// Undoes the `%xx` escapes of an address value.
    private static func unescape(_ value: Substring) throws -> String {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else {
                throw KeyringError(code: .serviceUnavailable, message: "the D-Bus address has a broken %-escape")
            }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    var description: String {
        switch self {
        case .path(let path): path
        case .abstract(let name): "@" + name
        }
    }
}
