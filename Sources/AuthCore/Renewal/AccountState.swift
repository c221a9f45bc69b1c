// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What an account's session is doing, as ``AccountSession/states()`` reports it: for an app to
/// show ("signed in", "reconnecting…", "please sign in again") and to react to.
public enum AccountState: Sendable, Hashable, CustomStringConvertible {
    /// No credential is stored for the account.
    case signedOut
    /// A credential is in use; it expires at `expiresAt` (nil: never, or not known).
    case signedIn(expiresAt: Date?)
    /// The credential is being renewed; requests wait for it.
    case renewing
    /// Renewal failed for good: only a new sign-in (here or in another process) ends this.
    /// `reason` is the server's or the library's explanation, never a secret.
    case reauthenticationRequired(reason: String)
    /// The credential store cannot be read or written; requests that hold a valid credential in
    /// memory keep working. Ends when an operation on the store succeeds again.
    case storeUnavailable(reason: String)

    /// A short description, such as `signedIn(expiresAt: 2026-11-26T10:00:00Z)`.
    public var description: String {
        switch self {
        case .signedOut: "signedOut"
        case .signedIn(let expiresAt): "signedIn(expiresAt: \(expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "-"))"
        case .renewing: "renewing"
        case .reauthenticationRequired(let reason): "reauthenticationRequired: \(reason)"
        case .storeUnavailable(let reason): "storeUnavailable: \(reason)"
        }
    }
}
