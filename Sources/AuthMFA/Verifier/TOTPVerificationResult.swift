// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The outcome of ``TOTPVerifier/verify(_:for:)``.
public enum TOTPVerificationResult: Sendable, Hashable, CustomStringConvertible {
    /// The code is valid and was not used before; it is now recorded as used.
    case accepted(step: UInt64)
    /// The code is wrong; `remainingAttempts` more failures are allowed before a lockout.
    case rejected(remainingAttempts: Int)
    /// The code was valid but its time step (or a later one) was accepted already.
    case replayed
    /// Too many failures: no code is checked until `until`.
    case lockedOut(until: Date)

    /// Whether the code was accepted.
    public var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }

    /// A short text form, without the code.
    public var description: String {
        switch self {
        case .accepted(let step): "accepted (step \(step))"
        case .rejected(let remaining): "rejected (\(remaining) attempts remaining)"
        case .replayed: "replayed"
        case .lockedOut(let until): "locked out until \(until)"
        }
    }
}
