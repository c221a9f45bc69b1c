// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import Foundation

/// One connection to the Secret Service with a `plain` session open: the calls
/// ``SecretServiceKeyring`` makes, blocking, each bounded by the keyring's time limit.
final class SecretServiceConversation {
    private static let service = "org.freedesktop.secrets"
    private static let servicePath = "/org/freedesktop/secrets"
    private static let serviceInterface = "org.freedesktop.Secret.Service"

    private let connection: DBusConnection
    private let options: SecretServiceKeyring.Options
    private let deadline: ContinuousClock.Instant
    /// The `plain` session, where secrets cross the bus as they are.
    private var session = "/"

    init(options: SecretServiceKeyring.Options) throws {
        self.options = options
        deadline = .now + options.timeout
        let addresses = try options.busAddress.map(DBusAddress.parse) ?? DBusAddress.sessionBus()
        guard !addresses.isEmpty else {
            throw KeyringError(code: .serviceUnavailable, message: "the bus address names no Unix socket this client can use")
        }
        connection = try DBusConnection(addresses: addresses, deadline: deadline)
        let reply = try call(Self.servicePath, Self.serviceInterface, "OpenSession", [.string("plain"), .variant(.string(""))])
        guard reply.body.count == 2, let path = reply.body[1].stringValue else { throw malformed("OpenSession") }
        session = path
    }

    /// Closes the session and the connection.
    func end() {
        if session != "/" {
            _ = try? connection.call(destination: Self.service, path: session, interface: "org.freedesktop.Secret.Session", member: "Close", deadline: deadline)
        }
        connection.close()
    }

    /// The unlocked and locked items whose attributes include `attributes`.
    func search(_ attributes: [String: String]) throws -> (unlocked: [String], locked: [String]) {
        let reply = try call(Self.servicePath, Self.serviceInterface, "SearchItems", [.stringDictionary(attributes)])
        guard reply.body.count == 2, let unlocked = reply.body[0].objectPathList, let locked = reply.body[1].objectPathList else {
            throw malformed("SearchItems")
        }
        return (unlocked, locked)
    }

    /// The item among `paths` created first, so that every process picks the same one of
    /// duplicates; nil when `paths` is empty. `Created` counts seconds: a tie goes to the item
    /// whose path sorts first as a number would (a shorter path first: the Secret Service numbers
    /// a collection's items in the order they are created, `…/9` before `…/10`).
    func first(of paths: [String]) throws -> String? {
        guard paths.count > 1 else { return paths.first }
        var dated: [(created: UInt64, path: String)] = []
        for path in paths {
            let value = try property(path, "org.freedesktop.Secret.Item", "Created")
            dated.append((value.uint64Value ?? .max, path))
        }
        return dated.min { ($0.created, $0.path.count, $0.path) < ($1.created, $1.path.count, $1.path) }?.path
    }

    /// The secret of the item at `path`.
    func secret(of path: String) throws -> KeyringSecret {
        let reply = try call(path, "org.freedesktop.Secret.Item", "GetSecret", [.objectPath(session)])
        defer { reply.zero() }
        guard reply.body.count == 1, case .structure(let fields) = reply.body[0], fields.count == 4,
              case .byteRange(let range) = fields[2] else { throw malformed("GetSecret") }
        return reply.bytes(in: range).withUnsafeBytes { KeyringSecret(copying: $0) }
    }

    /// The collection of the `default` alias.
    func defaultCollection() throws -> String {
        let reply = try call(Self.servicePath, Self.serviceInterface, "ReadAlias", [.string("default")])
        guard let path = reply.body.first?.stringValue else { throw malformed("ReadAlias") }
        guard path != "/" else {
            throw KeyringError(code: .serviceUnavailable, message: "the Secret Service has no default keyring: create one (in the desktop's Passwords and Keys, say)")
        }
        return path
    }

    /// Whether the collection at `path` is locked.
    func isLocked(_ path: String) throws -> Bool {
        guard let locked = try property(path, "org.freedesktop.Secret.Collection", "Locked").boolValue else { throw malformed("Locked") }
        return locked
    }

    /// Unlocks `paths`: at once when the service needs no prompt; through the service's prompt
    /// when one is needed and allowed.
    /// - Throws: ``KeyringError`` `.locked` when a prompt is needed and not allowed, `.denied`
    ///   when the user dismissed it.
    func unlock(_ paths: [String]) throws {
        let reply = try call(Self.servicePath, Self.serviceInterface, "Unlock", [.objectPaths(paths)])
        guard reply.body.count == 2, let prompt = reply.body[1].stringValue else { throw malformed("Unlock") }
        if prompt != "/" { try run(prompt, purpose: "unlock the keyring") }
    }

    /// Creates an item; `replacing` one of the same attributes, or beside it.
    func createItem(in collection: String, label: String, attributes: [String: String], secret: KeyringSecret, replacing: Bool) throws {
        let properties: DBusValue = .array(element: "{sv}", [
            .dictEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string(label))),
            .dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(.stringDictionary(attributes))),
        ])
        let value: DBusValue = .structure([.objectPath(session), .bytes([]), .secret(secret), .string("application/octet-stream")])
        let reply = try call(collection, "org.freedesktop.Secret.Collection", "CreateItem", [properties, value, .bool(replacing)])
        guard reply.body.count == 2, let prompt = reply.body[1].stringValue else { throw malformed("CreateItem") }
        if prompt != "/" { try run(prompt, purpose: "store the secret") }
    }

    /// Deletes the item at `path`.
    func delete(_ path: String) throws {
        let reply = try call(path, "org.freedesktop.Secret.Item", "Delete", [])
        guard let prompt = reply.body.first?.stringValue else { throw malformed("Delete") }
        if prompt != "/" { try run(prompt, purpose: "delete the secret") }
    }

    /// Shows the service's prompt at `path` and waits for the user's answer.
    private func run(_ prompt: String, purpose: String) throws {
        guard options.allowsPrompts else {
            throw KeyringError(code: .locked, message: "the keyring is locked, and prompts are not allowed (SecretServiceKeyring.Options.allowsPrompts) to \(purpose): unlock it and try again")
        }
        let promptDeadline = ContinuousClock.now + options.promptTimeout
        let rule = "type='signal',interface='org.freedesktop.Secret.Prompt',member='Completed',path='\(prompt)'"
        try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "AddMatch", body: [.string(rule)], deadline: deadline)
        try call(prompt, "org.freedesktop.Secret.Prompt", "Prompt", [.string("")])
        let completed: DBusMessage
        do {
            completed = try connection.waitForSignal(path: prompt, interface: "org.freedesktop.Secret.Prompt", member: "Completed", deadline: promptDeadline)
        } catch let error as KeyringError where error.code == .timeout {
            _ = try? connection.call(destination: Self.service, path: prompt, interface: "org.freedesktop.Secret.Prompt", member: "Dismiss", deadline: .now + .seconds(2))
            throw KeyringError(code: .timeout, message: "no one answered the keyring's prompt to \(purpose) within \(options.promptTimeout)")
        }
        guard let dismissed = completed.body.first?.boolValue else { throw malformed("Completed") }
        if dismissed {
            throw KeyringError(code: .denied, message: "the keyring's prompt to \(purpose) was dismissed")
        }
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws -> DBusValue {
        let reply = try call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
        guard let value = reply.body.first else { throw malformed("Get \(name)") }
        return value
    }

    @discardableResult
    private func call(_ path: String, _ interface: String, _ member: String, _ body: [DBusValue]) throws -> DBusMessage {
        do {
            return try connection.call(destination: Self.service, path: path, interface: interface, member: member, body: body, deadline: deadline)
        } catch let error as DBusCallError {
            throw Self.keyringError(error)
        }
    }

    /// The keyring error for a D-Bus error reply.
    static func keyringError(_ error: DBusCallError) -> KeyringError {
        let detail = error.text.isEmpty ? error.name : "\(error.name): \(error.text.prefix(200))"
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.NoServer",
             "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.Spawn.ChildExited":
            return KeyringError(code: .serviceUnavailable, message: "no Secret Service runs on the session bus (is GNOME Keyring, KWallet or KeePassXC running?) (\(detail))")
        case "org.freedesktop.Secret.Error.IsLocked":
            return KeyringError(code: .locked, message: "the keyring is locked: unlock it and try again (\(detail))")
        case "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.AuthFailed":
            return KeyringError(code: .denied, message: "the Secret Service refused this process (\(detail))")
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.TimedOut":
            return KeyringError(code: .timeout, message: "the Secret Service did not answer \(error.member) in time (\(detail))")
        default:
            return KeyringError(code: .failed, message: "the Secret Service refused \(error.member) (\(detail))")
        }
    }

    private func malformed(_ member: String) -> KeyringError {
        KeyringError(code: .malformedAnswer, message: "the Secret Service's answer to \(member) is not what the API specifies")
    }
}
#endif
