// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension AuthContainer {
    /// Opens (or creates, mode 0700) a file credential store in `directory` and makes it the
    /// container's store.
    ///
    /// ```swift
    /// let store = try container.useFileStore(at: URL(fileURLWithPath: "/home/me/.config/mytool/credentials"))
    /// ```
    /// - Throws: `FileStoreError` when the directory is unsafe (writable by others, owned by
    ///   another user) or cannot be created.
    @discardableResult
    public func useFileStore(at directory: URL, options: FileCredentialStore.Options = .init()) throws -> FileCredentialStore {
        let store = try FileCredentialStore(directory: directory, options: options)
        override(CredentialStoreKey.self, with: store)
        return store
    }
}
