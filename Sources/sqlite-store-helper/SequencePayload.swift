// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A self-checking record payload for crash tests: a sequence number, a body derived from it,
/// and an FNV-1a checksum of both. A torn or mixed write fails ``decode(_:)``.
///
/// Layout: `seq` (8 bytes, big-endian) · body length (4 bytes) · body · checksum (8 bytes).
/// The test target has its own copy of this format, so the writer and the checker are
/// independent.
enum SequencePayload {
    /// A payload for `seq`; its body is 512 to 16,895 bytes so that writes span several pages.
    static func encode(_ seq: UInt64) -> Data {
        var bytes = bigEndian(seq)
        let body = self.body(seq)
        bytes += bigEndian(UInt64(body.count)).suffix(4)
        bytes += body
        bytes += bigEndian(fnv1a(bytes))
        return Data(bytes)
    }

    /// The sequence number in `payload`, or nil when it does not check out.
    static func decode(_ payload: Data) -> UInt64? {
        let bytes = [UInt8](payload)
        guard bytes.count >= 20 else { return nil }
        let seq = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let length = Int(bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        guard bytes.count == 12 + length + 8 else { return nil }
        let checksum = bytes[(12 + length)...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard checksum == fnv1a(bytes[0..<(12 + length)]), Array(bytes[12..<(12 + length)]) == body(seq) else { return nil }
        return seq
    }

    private static func body(_ seq: UInt64) -> [UInt8] {
        var state = seq &* 0x9E37_79B9_7F4A_7C15 | 1
        let count = 512 + Int(seq % 16_384)
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17  // xorshift64
            return UInt8(truncatingIfNeeded: state)
        }
    }

    private static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }
}
