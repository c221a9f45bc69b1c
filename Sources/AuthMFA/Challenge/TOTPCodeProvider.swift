// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// An ``MFACodeProvider`` that answers `totp` challenges from a stored or given TOTP secret,
/// such as a command-line tool or a test that holds the user's authenticator secret.
///
/// ```swift
/// let provider = TOTPCodeProvider(vault: TOTPSecretVault(store: store), account: account)
/// let code = try await provider.code(for: challenge, method: .totp)
/// ```
public struct TOTPCodeProvider: MFACodeProvider, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private enum Source: Sendable {
        case generator(TOTP)
        case vault(TOTPSecretVault, AccountKey)
    }

    private let source: Source
    private let now: @Sendable () -> Date

    /// Answers from `totp`.
    ///
    /// - Parameters:
    ///   - totp: The generator holding the secret.
    ///   - now: The clock; inject one in tests.
    public init(totp: TOTP, now: @escaping @Sendable () -> Date = { Date() }) {
        self.source = .generator(totp)
        self.now = now
    }

    /// Answers from the secret stored for `account` in `vault`, read at each call.
    public init(vault: TOTPSecretVault, account: AccountKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.source = .vault(vault, account)
        self.now = now
    }

    /// The current TOTP code.
    ///
    /// - Throws: ``MFAError`` `.noMethodAvailable` unless `method` is `totp` and the challenge
    ///   offers it; `.expiredChallenge` when it has expired; `.notEnrolled` when the vault has no
    ///   secret; ``/AuthCore/CredentialStoreError`` when the store fails.
    public func code(for challenge: MFAChallenge, method: MFAMethod) async throws -> String {
        guard method == .totp, challenge.methods.contains(.totp) else {
            throw MFAError.noMethodAvailable(offered: challenge.methods)
        }
        let date = now()
        guard !challenge.isExpired(at: date) else { throw MFAError.expiredChallenge() }
        let totp: TOTP
        switch source {
        case .generator(let generator):
            totp = generator
        case .vault(let vault, let account):
            guard let stored = try await vault.load(for: account) else { throw MFAError.notEnrolled(method: .totp) }
            totp = stored
        }
        return try totp.code(at: date)
    }

    /// `TOTPCodeProvider(secret: redacted)`.
    public var description: String {
        switch source {
        case .generator(let totp): "TOTPCodeProvider(\(totp))"
        case .vault(_, let account): "TOTPCodeProvider(vault: \(TOTPSecretVault.item), account: \(account))"
        }
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the secret.
    public var customMirror: Mirror { Mirror(self, children: ["source": description], displayStyle: .struct) }
}
