// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Supplies the code that answers an MFA challenge: asks the user, reads an authenticator
/// secret, or looks up a recovery code.
///
/// The client's sign-in flow calls it when the server answers `mfa_required`.
///
/// ## Implementing
/// Return the code for `method`, or throw ``MFAError`` (`.noMethodAvailable` when you cannot
/// answer that method, `.expiredChallenge` when it is too late). Never log the code.
///
/// ```swift
/// let provider = ClosureMFACodeProvider { challenge, method in
///     try await promptUser("Code for \(method):")
/// }
/// ```
public protocol MFACodeProvider: Sendable {
    /// The code answering `challenge` by `method`.
    func code(for challenge: MFAChallenge, method: MFAMethod) async throws -> String
}

/// An ``MFACodeProvider`` made from a closure (a prompt, a test fixture).
public struct ClosureMFACodeProvider: MFACodeProvider, CustomStringConvertible {
    private let body: @Sendable (MFAChallenge, MFAMethod) async throws -> String

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (MFAChallenge, MFAMethod) async throws -> String) {
        self.body = body
    }

    /// Calls the closure.
    public func code(for challenge: MFAChallenge, method: MFAMethod) async throws -> String {
        try await body(challenge, method)
    }

    /// `ClosureMFACodeProvider`.
    public var description: String { "ClosureMFACodeProvider" }
}
