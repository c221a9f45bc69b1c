// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

extension Envelope {
    /// Whether `other` is this record as a store gives it back: same kind, format version and
    /// payload bytes, and the same times to within a microsecond.
    ///
    /// Stores keep times as floating-point seconds since different epochs (the file store since
    /// 1970, the SQLite store since 2001), so one round trip can move a time by its last bit; a
    /// microsecond is several of those bits, and far finer than any expiry.
    func holdsSameRecord(as other: Envelope) -> Bool {
        kind == other.kind && formatVersion == other.formatVersion && payload == other.payload
            && Self.close(updatedAt, other.updatedAt)
            && ((expiresAt == nil && other.expiresAt == nil)
                || (expiresAt.flatMap { mine in other.expiresAt.map { Self.close(mine, $0) } } ?? false))
    }

    private static func close(_ a: Date, _ b: Date) -> Bool {
        abs(a.timeIntervalSinceReferenceDate - b.timeIntervalSinceReferenceDate) <= 1e-6
    }
}
