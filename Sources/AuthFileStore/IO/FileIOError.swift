// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Why a file operation of the store failed: a system call, or the store's directory policy.
enum FileIOError: Error {
    /// A system call failed.
    case system(PosixError)
    /// The entry breaks ``StoreDirectoryPolicy``: a link inside the store, a file where a
    /// directory belongs, and so on. Nothing was followed or changed.
    case refused(StoreDirectoryPolicy.Refusal)

    /// The file concerned.
    var path: String {
        switch self {
        case .system(let error): error.path
        case .refused(let refusal): refusal.path
        }
    }
}
