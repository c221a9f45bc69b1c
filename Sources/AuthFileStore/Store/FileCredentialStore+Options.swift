// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

extension FileCredentialStore {
    /// How a ``FileCredentialStore`` waits for locks and treats damaged records.
    public struct Options: Sendable {
        /// How long to wait for a lock (an account's refresh lock, or the store's write lock)
        /// held by another process before giving up with `CredentialStoreError.unavailable`.
        public var lockTimeout: Duration
        /// Whether a record file that cannot be decoded is moved aside to
        /// `<name>.corrupt-<UTC time>` (the default) or left in place. Either way the read throws
        /// `.corrupted`; the file is never deleted.
        public var quarantinesCorruptedRecords: Bool
        /// The clock used to name quarantined files.
        public var now: @Sendable () -> Date

        /// Creates options.
        /// - Parameters:
        ///   - lockTimeout: The longest wait for a lock held elsewhere; 10 seconds by default.
        ///   - quarantinesCorruptedRecords: Whether damaged records are moved aside.
        ///   - now: The clock used to name quarantined files.
        public init(
            lockTimeout: Duration = .seconds(10),
            quarantinesCorruptedRecords: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.lockTimeout = lockTimeout
            self.quarantinesCorruptedRecords = quarantinesCorruptedRecords
            self.now = now
        }
    }
}
