// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
import AuthCore
import AuthKeyring
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Secret Service backend against a real GNOME Keyring on a private session bus (one bus
/// and one keyring daemon per test, one test at a time).
@Suite(.serialized, .enabled(if: PrivateSecretService.shouldRun, PrivateSecretService.disabledNote), .timeLimit(.minutes(3)))
struct SecretServiceKeyringTests {
    let item = KeyringItem(service: "dev.authkit.tests", account: "alice")

    @Test func storesFindsReplacesAndDeletesASecret() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            #expect(try await keyring.secret(for: item) == nil)

            try await keyring.setSecret(KeyringSecret(bytes: Array("first secret".utf8)), for: item, label: "AuthKit test")
            let found = try #require(try await keyring.secret(for: item))
            #expect(found.withUnsafeBytes { Array($0) } == Array("first secret".utf8))

            // Replaced, not duplicated; another item stays apart.
            try await keyring.setSecret(KeyringSecret(bytes: [0, 1, 2, 255]), for: item, label: "AuthKit test")
            let other = KeyringItem(service: "dev.authkit.tests", account: "bob")
            try await keyring.setSecret(KeyringSecret(bytes: Array("bob's".utf8)), for: other, label: "AuthKit test")
            #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == [0, 1, 2, 255])
            #expect(try await keyring.secret(for: other)?.withUnsafeBytes { Array($0) } == Array("bob's".utf8))

            #expect(try await keyring.deleteSecret(for: item))
            #expect(try await keyring.secret(for: item) == nil)
            #expect(try await keyring.deleteSecret(for: item) == false)
            #expect(try await keyring.secret(for: other) != nil)
        }
    }

    @Test func anItemStoredHereIsListedToAnotherClient() async throws {
        // dbus-send (an independent client) cannot open a session to read a secret; it can
        // search: what this client stores, the service lists under the documented attributes.
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            try await keyring.setSecret(KeyringSecret(bytes: Array("x".utf8)), for: item, label: "AuthKit test")
            let listing = try await service.send([
                "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.SearchItems",
                "dict:string:string:service,dev.authkit.tests,account,alice,xdg:schema,\(KeyringItem.schema)",
            ])
            #expect(listing.contains("/org/freedesktop/secrets/collection/login/"))
        }
    }

    @Test func aLockedKeyringIsATypedErrorWhenPromptsAreNotAllowed() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(allowsPrompts: false, busAddress: service.busAddress))
            try await keyring.setSecret(KeyringSecret(bytes: Array("kept".utf8)), for: item, label: "AuthKit test")
            try await service.lock()
            await #expect { try await keyring.secret(for: item) } throws: { ($0 as? KeyringError)?.code == .locked }
            await #expect { try await keyring.setSecret(KeyringSecret(bytes: [1]), for: item, label: "AuthKit test") } throws: {
                ($0 as? KeyringError)?.code == .locked
            }
            await #expect { try await keyring.deleteSecret(for: item) } throws: { ($0 as? KeyringError)?.code == .locked }
            // Nothing was lost: unlocked again (the daemon restarted with the password), the
            // secret is there.
            try await service.restartKeyring()
            #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == Array("kept".utf8))
        }
    }

    @Test func aLockedKeyringWhosePromptCannotBeShownIsRefused() async throws {
        // No prompter runs on the private bus (no display, no service activation): the prompt
        // fails, and the call says so with a typed error rather than waiting forever.
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(allowsPrompts: true, promptTimeout: .seconds(20), busAddress: service.busAddress))
            try await keyring.setSecret(KeyringSecret(bytes: Array("kept".utf8)), for: item, label: "AuthKit test")
            try await service.lock()
            await #expect { try await keyring.secret(for: item) } throws: { ($0 as? KeyringError)?.code == .denied }
        }
    }

    @Test func noSecretServiceOnTheBusIsATypedError() async throws {
        try await PrivateSecretService.with(withKeyring: false) { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            await #expect { try await keyring.secret(for: item) } throws: { error in
                guard let error = error as? KeyringError else { return false }
                return error.code == .serviceUnavailable && error.message.contains("no Secret Service")
            }
        }
    }

    @Test func aSecretServiceThatWentAwayIsATypedError() async throws {
        try await PrivateSecretService.with { service in
            let keyring = SecretServiceKeyring(options: .init(busAddress: service.busAddress))
            try await keyring.setSecret(KeyringSecret(bytes: Array("kept".utf8)), for: item, label: "AuthKit test")
            await service.stopKeyring()
            await #expect { try await keyring.secret(for: item) } throws: { ($0 as? KeyringError)?.code == .serviceUnavailable }
            // Back, with what it had stored.
            try await service.restartKeyring()
            #expect(try await keyring.secret(for: item)?.withUnsafeBytes { Array($0) } == Array("kept".utf8))
        }
    }

    @Test func aBusThatNeverAnswersIsATimeoutWithinTheLimit() async throws {
        // A socket that takes connections into its backlog and never answers them.
        let path = "/tmp/authkit-mute-\(UUID().uuidString.prefix(8))"
        let listener = try MuteSocket(path: path)
        defer { listener.close() }
        let keyring = SecretServiceKeyring(options: .init(timeout: .milliseconds(500), busAddress: "unix:path=\(path)"))
        await #expect { try await keyring.secret(for: item) } throws: { ($0 as? KeyringError)?.code == .timeout }
    }

    @Test func noBusIsATypedError() async throws {
        let keyring = SecretServiceKeyring(options: .init(busAddress: "unix:path=/tmp/authkit-no-such-bus-\(UUID().uuidString.prefix(8))"))
        await #expect { try await keyring.secret(for: item) } throws: { ($0 as? KeyringError)?.code == .serviceUnavailable }
    }
}
/// A listening Unix socket that never accepts: a bus that does not answer.
struct MuteSocket {
    let descriptor: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else {
            throw PrivateSecretService.Failure(description: "could not listen on \(path)")
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
        unlink(path)
    }
}
#endif
