// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The errors a ``Keyring`` throws.
///
/// Codes tell apart what a caller does next:
/// - `.locked`: the keyring is locked and this call was not allowed to ask the user to unlock it
///   (``SecretServiceKeyring/Options/allowsPrompts``); unlock it and try again;
/// - `.denied`: the user dismissed the keyring's prompt, or the keyring refused this process;
/// - `.serviceUnavailable`: no keyring service answers (no session bus, no Secret Service
///   running, no default keyring);
/// - `.timeout`: the bus or the service did not answer within the keyring's time limit;
/// - `.malformedAnswer`: the service answered with something this client cannot read, or the
///   stored secret is not what it should be (a vault key of the wrong length);
/// - `.failed`: the service reported another error (its D-Bus error name is in the message).
///
/// No message ever contains a secret.
public struct KeyringError: Error, Sendable, CustomStringConvertible {
    /// What kind of keyring failure this is.
    public typealias Code = ErrorCode<KeyringError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `KeyringError.code: message`.
    public var description: String { "KeyringError.\(code): \(message)" }
}

extension ErrorCode where Domain == KeyringError {
    /// The keyring is locked, and the call could not unlock it without asking the user.
    public static var locked: Self { Self("locked") }
    /// The user dismissed the keyring's prompt, or the keyring refused this process.
    public static var denied: Self { Self("denied") }
    /// No keyring service answers: no session bus, no Secret Service, no default keyring.
    public static var serviceUnavailable: Self { Self("serviceUnavailable") }
    /// The bus or the keyring did not answer within the time limit.
    public static var timeout: Self { Self("timeout") }
    /// An answer, or a stored secret, is not what it should be.
    public static var malformedAnswer: Self { Self("malformedAnswer") }
    /// The keyring reported another failure.
    public static var failed: Self { Self("failed") }
}
