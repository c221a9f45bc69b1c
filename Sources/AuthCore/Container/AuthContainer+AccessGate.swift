// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The gate asked before a stored credential is used; none by default.
public enum CredentialAccessGateKey: AuthContainerKey {
    /// No gate: stored credentials are used without asking.
    public static func makeDefault(_ container: AuthContainer) -> CredentialAccessGate? { nil }
}

extension AuthContainer {
    /// Asks `gate` before the clients this container makes from now on use a stored credential
    /// (see ``CredentialAccessGate``).
    ///
    /// ```swift
    /// container.useCredentialAccessGate(CredentialAccessGate(approvalWindow: .seconds(300)) { access in
    ///     try await promptUser("Use your saved sign-in for \(access.origin.host)? [y/N]") == "y"
    /// })
    /// ```
    /// - Parameter gate: The gate; its approvals are shared by every client of the container.
    public func useCredentialAccessGate(_ gate: CredentialAccessGate) {
        override(CredentialAccessGateKey.self, with: gate)
    }
}
