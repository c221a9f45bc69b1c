// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// Creates the store's directory or checks that an existing one is safe to keep secrets in,
/// following `StoreDirectoryPolicy`, and opens it.
enum DirectoryGuard {
    /// Makes sure `url` is a directory only its owner, this user, can write to, and opens it.
    ///
    /// Missing directories (the root and any missing parents) are created with mode 0700. An
    /// existing root must be a directory owned by the effective user whose mode gives group and
    /// others no write access; it is not changed. Links in the caller's path to the root are
    /// followed (the caller chose them); the root is then opened without following a link, and
    /// checked again on its descriptor.
    /// - Returns: The open root, whose path has every symbolic link resolved.
    /// - Throws: ``FileStoreError``.
    static func prepare(_ url: URL) throws(FileStoreError) -> StoreDirectory {
        guard url.isFileURL else {
            throw FileStoreError(code: .invalidLocation, message: "the store location must be a file URL", path: url.absoluteString)
        }
        let path = url.standardizedFileURL.path
        let resolved: String
        do {
            resolved = try StoreDirectoryPolicy.prepareDirectory(atPath: path)
        } catch {
            throw FileStoreError(error)
        }
        do {
            return try StoreDirectory.openRoot(resolved)
        } catch {
            switch error {
            case .refused(let refusal): throw FileStoreError(refusal)
            case .system(let failure): throw FileStoreError(code: .io, message: "cannot open the store directory", path: path, underlying: failure)
            }
        }
    }
}

extension FileStoreError {
    /// The error for a refusal of the directory policy, which it carries as `underlying`.
    init(_ refusal: StoreDirectoryPolicy.Refusal) {
        let code: Code = switch refusal.code {
        case .notADirectory, .notARegularFile: .notADirectory
        case .insecurePermissions: .insecurePermissions
        case .foreignOwner: .foreignOwner
        case .symbolicLink: .symbolicLink
        default: .io
        }
        self.init(code: code, message: refusal.message, path: refusal.path, underlying: refusal)
    }
}
