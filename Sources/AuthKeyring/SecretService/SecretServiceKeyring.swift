// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import Foundation

/// The freedesktop.org Secret Service (GNOME Keyring, KWallet, KeePassXC) as a ``Keyring``,
/// spoken to directly over the D-Bus session bus: no C library to install.
///
/// Secrets go into the user's default keyring (the `default` alias, normally the login
/// keyring), as items with the attributes of their ``KeyringItem``. The secret crosses the
/// local, kernel-authenticated bus socket in the Secret Service's `plain` session, as `secret-tool`
/// and Python's `keyring` send it; it is never logged, and the buffers it passed through are
/// overwritten with zeros.
///
/// ```swift
/// let keyring = SecretServiceKeyring()
/// let item = KeyringItem(service: "com.example.mytool", account: "vault-key")
/// if let key = try await keyring.secret(for: item) { print(key) }   // KeyringSecret(32 bytes)
/// ```
///
/// Each call opens its own connection, makes a few calls and closes it, on a thread of its own
/// (not the cooperative pool): the keyring is read when a tool starts, not per request.
public struct SecretServiceKeyring: Keyring {
    /// How the keyring behaves when it meets a locked keyring, and how long it waits.
    public struct Options: Sendable {
        /// Whether a locked keyring may be unlocked by the keyring's own prompt (a password
        /// dialog of the desktop). When false, a locked keyring throws ``KeyringError`` `.locked`
        /// at once: for a tool that runs without a user at the screen. True by default.
        public var allowsPrompts: Bool
        /// The limit for each call, from connecting to the last answer, prompts aside.
        public var timeout: Duration
        /// How long a prompt may wait for the user before the call fails with `.timeout`.
        public var promptTimeout: Duration
        /// The bus address (`unix:path=…`); nil for the session bus of the environment
        /// (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
        public var busAddress: String?

        /// The defaults: prompts allowed, 10 seconds per call, 2 minutes for a prompt.
        /// - Parameters:
        ///   - allowsPrompts: Whether a locked keyring may be unlocked through its prompt.
        ///   - timeout: The limit for each call, prompts aside.
        ///   - promptTimeout: How long a prompt may wait for the user.
        ///   - busAddress: The bus address, or nil for the session bus of the environment.
        public init(allowsPrompts: Bool = true, timeout: Duration = .seconds(10), promptTimeout: Duration = .seconds(120), busAddress: String? = nil) {
            self.allowsPrompts = allowsPrompts
            self.timeout = timeout
            self.promptTimeout = promptTimeout
            self.busAddress = busAddress
        }
    }

    /// The options.
    public let options: Options

    /// A keyring on the session bus.
    /// - Parameter options: Prompts and time limits.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The secret stored for `item`, or nil.
    /// - Throws: ``KeyringError``: `.locked` when its keyring is locked and prompts are not
    ///   allowed, `.denied` when the user dismissed the unlock prompt, `.serviceUnavailable`
    ///   when no Secret Service runs.
    public func secret(for item: KeyringItem) async throws -> KeyringSecret? {
        try await converse { conversation in
            let (unlocked, locked) = try conversation.search(item.attributes)
            var candidates = unlocked
            if candidates.isEmpty, !locked.isEmpty {
                try conversation.unlock(locked)
                candidates = locked
            }
            guard let chosen = try conversation.first(of: candidates) else { return nil }
            return try conversation.secret(of: chosen)
        }
    }

    /// Stores `secret` for `item` in the default keyring, replacing the one stored before.
    /// - Throws: ``KeyringError``.
    public func setSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws {
        try await store(secret, for: item, label: label, replacing: true)
    }

    /// Stores `secret` for `item` in the default keyring as an item of its own beside those
    /// stored before: ``secret(for:)`` returns the earliest created.
    /// - Throws: ``KeyringError``.
    public func addSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws {
        try await store(secret, for: item, label: label, replacing: false)
    }

    private func store(_ secret: KeyringSecret, for item: KeyringItem, label: String, replacing: Bool) async throws {
        try await converse { conversation in
            let collection = try conversation.defaultCollection()
            if try conversation.isLocked(collection) { try conversation.unlock([collection]) }
            try conversation.createItem(in: collection, label: label, attributes: item.attributes, secret: secret, replacing: replacing)
        }
    }

    /// Deletes every item of `item`'s attributes.
    /// - Returns: Whether there was one.
    /// - Throws: ``KeyringError``.
    @discardableResult
    public func deleteSecret(for item: KeyringItem) async throws -> Bool {
        try await converse { conversation in
            let (unlocked, locked) = try conversation.search(item.attributes)
            if !locked.isEmpty { try conversation.unlock(locked) }
            for path in unlocked + locked { try conversation.delete(path) }
            return !(unlocked.isEmpty && locked.isEmpty)
        }
    }

    /// Runs `body` with a new conversation on a thread of its own, and ends the conversation.
    private func converse<Value: Sendable>(_ body: @escaping @Sendable (SecretServiceConversation) throws -> Value) async throws -> Value {
        let options = options
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result<Value, any Error> {
                    let conversation = try SecretServiceConversation(options: options)
                    defer { conversation.end() }
                    return try body(conversation)
                })
            }
        }
    }
}

#endif
