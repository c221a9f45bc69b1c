// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

extension AuthContainer {
    /// Seals every stored credential of this container's clients with `cipher`.
    ///
    /// Without a cipher, stores keep credentials as plaintext JSON in files only their owner can
    /// read (mode 0600, in a folder no one else can write): AuthKit cannot choose where a key
    /// should live for you. With one, a copied store file is useless without the key:
    ///
    /// ```swift
    /// container.useCipher(try AESGCMCipher(key: keyFromTheKeychainOrASecretsManager))
    /// ```
    public func useCipher(_ cipher: any CredentialCipher) {
        override(CredentialCipherKey.self, with: cipher)
    }
}
