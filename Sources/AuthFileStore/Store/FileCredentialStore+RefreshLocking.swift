// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension FileCredentialStore {
    /// Runs `body` while holding the refresh lock of `account`, in this process and across every
    /// process that shares the directory.
    ///
    /// Callers in this process queue on an in-process lock first; the holder then takes an
    /// exclusive `flock` on `<root>/.locks/<namespace>/<account>.lock`, trying without blocking
    /// and sleeping (1 ms doubling to 50 ms, with jitter) between tries, so no thread is blocked.
    /// The system releases the `flock` when its holder exits or crashes, so a dead process never
    /// keeps others out. The lock is not reentrant: do not call this again for the same account
    /// inside `body`.
    /// - Throws: `CredentialStoreError.unavailable` when another caller, in this process or
    ///   another, holds the lock longer than ``Options/lockTimeout``; `CancellationError` if the task is cancelled while waiting;
    ///   whatever `body` throws.
    public func withRefreshLock<T: Sendable>(
        for account: AccountKey,
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        // One deadline for both halves: the lock timeout bounds the whole wait.
        let deadline = ContinuousClock.now.advanced(by: options.lockTimeout)
        return try await accountLocks.withLock(account, waitingAtMost: options.lockTimeout) {
            let fd = try await self.run { try $0.openRefreshLock(account) }
            do {
                try await self.waitForFileLock(fd, account: account, until: deadline)
            } catch {
                PosixFiles.unlockAndClose(fd)
                throw error
            }
            defer { PosixFiles.unlockAndClose(fd) }
            return try await body()
        }
    }

    private func waitForFileLock(_ fd: Int32, account: AccountKey, until deadline: ContinuousClock.Instant) async throws {
        let path = engine.layout.lockPath(account)
        let clock = ContinuousClock()
        var pause = Duration.milliseconds(1)
        while true {
            let taken = try FileStoreEngine.wrap("cannot lock the account's refresh lock file") { () throws(FileIOError) in
                try FileStoreEngine.system { () throws(PosixError) in try PosixFiles.tryLock(fd, path: path) }
            }
            if taken { return }
            guard clock.now < deadline else {
                throw CredentialStoreError.unavailable(
                    "the refresh lock of account \(account) was held by another process for longer than \(options.lockTimeout); try again later",
                    path: path)
            }
            try await Task.sleep(for: pause * Double.random(in: 0.5...1.0))
            pause = min(pause * 2, .milliseconds(50))
        }
    }
}
