// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock calls the store is built from, as thin wrappers over `flock`; files themselves are
/// reached through ``StoreDirectory``.
enum PosixFiles {
    /// The prefix of temporary files; leftovers of a crash are removed when a store opens.
    static let temporaryPrefix = ".tmp-"

    /// Tries to take an exclusive `flock` without waiting. - Returns: whether it was taken.
    static func tryLock(_ fd: Int32, path: String) throws(PosixError) -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw .current("flock", path)
        }
    }

    /// Releases a `flock` and closes its descriptor.
    static func unlockAndClose(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
