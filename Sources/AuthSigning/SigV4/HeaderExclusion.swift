// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A set of lower-case header names never signed, with a bitmap over (length, first byte) that
/// answers "not excluded" for most names without hashing them: one check per header field on
/// every signature.
struct HeaderExclusion: Sendable {
    let names: Set<String>
    /// Bit `first & 63` of entry `length` is set when some excluded name has that length and
    /// first byte (names of 64 bytes or more always go to the set); `ends` the same for the last
    /// byte.
    private let shapes: [UInt64]
    private let ends: [UInt64]

    init(_ names: Set<String>) {
        self.names = names
        var shapes = [UInt64](repeating: 0, count: 64), ends = shapes
        for name in names {
            let count = name.utf8.count
            if count < 64, let first = name.utf8.first, let last = name.utf8.last {
                shapes[count] |= 1 << UInt64(first & 63)
                ends[count] |= 1 << UInt64(last & 63)
            }
        }
        self.shapes = shapes
        self.ends = ends
    }

    /// Whether `name` (lower-case) is excluded.
    @inline(__always)
    func contains(_ name: String) -> Bool {
        let count = name.utf8.count
        if count < 64, let first = name.utf8.first, let last = name.utf8.last,
           shapes[count] & (1 << UInt64(first & 63)) == 0 || ends[count] & (1 << UInt64(last & 63)) == 0 {
            return false
        }
        return names.contains(name)
    }
}
