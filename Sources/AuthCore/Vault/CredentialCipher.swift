// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Seals record payloads before they reach a store and opens them after reading.
///
/// `context` binds a sealed payload to where it belongs (namespace, account, item and kind):
/// a payload copied to another record fails to open.
///
/// ## Implementing
/// Authenticated encryption only: `open` must throw on a wrong key or any changed byte.
/// ``AESGCMCipher`` is the built-in implementation.
public protocol CredentialCipher: Sendable {
    /// Encrypts and authenticates `plaintext`.
    func seal(_ plaintext: Data, context: Data) throws -> Data
    /// Checks and decrypts what ``seal(_:context:)`` produced.
    /// - Throws: `CredentialStoreError` with code `.cipher` on a wrong key or tampered bytes.
    func open(_ sealed: Data, context: Data) throws -> Data
}
