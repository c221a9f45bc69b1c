// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Runs `body` over the UTF-8 bytes of `string`: the string's own bytes when it has them
/// contiguously (native and small strings), else a contiguous copy's.
///
/// Inlinable, so that each module's callers (cookie matching, the caches' key comparison, the
/// transport's field scan) run it specialized rather than as generic code.
@inlinable
package func withUTF8Bytes<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = string
    return copy.withUTF8(body)
}
