// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Comparisons whose running time does not depend on where inputs differ.
///
/// Every byte is visited and the differences are OR-ed together; there is no early exit.
/// Only the lengths may leak, which are public for OTP codes and hashes.
enum ConstantTime {
    /// Whether two byte sequences are equal, visiting every byte of the longer one.
    static func equals<A: Collection<UInt8>, B: Collection<UInt8>>(_ lhs: A, _ rhs: B) -> Bool {
        var difference: UInt8 = lhs.count == rhs.count ? 0 : 1
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        for _ in 0..<max(lhs.count, rhs.count) {
            difference |= (left.next() ?? 0) ^ (right.next() ?? 0)
        }
        return difference == 0
    }
}
