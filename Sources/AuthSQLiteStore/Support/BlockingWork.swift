// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Dispatch

/// Runs synchronous work that may block (opening and migrating a database) on a dispatch queue,
/// so that it never holds a thread of Swift's cooperative pool.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "AuthSQLiteStore.blocking", attributes: .concurrent)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
