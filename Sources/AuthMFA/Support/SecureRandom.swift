// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Random bytes from the system's cryptographically secure generator.
///
/// `SystemRandomNumberGenerator` reads the operating system's CSPRNG (`getrandom` on Linux,
/// `arc4random_buf` on Apple platforms).
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var result = [UInt8](repeating: 0, count: count)
        var index = 0
        while index < count {
            var word = generator.next()
            for _ in 0..<8 where index < count {
                result[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        return result
    }
}
