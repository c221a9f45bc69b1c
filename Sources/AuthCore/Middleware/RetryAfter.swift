// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Reads a `Retry-After` header value (RFC 9110 §10.2.3): delay seconds or an HTTP-date.
public enum RetryAfter {
    /// The largest delay this reads, in seconds (about 31 years). A longer one, such as 400
    /// nines, is read as this: any caller caps it far lower, and nothing it computes overflows.
    public static let maximumSeconds: Double = 1e9

    /// The delay in seconds from `now`, in `0...maximumSeconds`, or nil when the value is neither
    /// form. A date in the past is zero.
    public static func seconds(_ value: String, now: Date) -> Double? {
        var value = value
        let delay = value.withUTF8 { bytes -> Double?? in
            var start = 0, end = bytes.count
            while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
            guard start < end, bytes[start..<end].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return .none }
            var seconds = 0.0
            for byte in bytes[start..<end] {
                seconds = Swift.min(seconds * 10 + Double(byte &- UInt8(ascii: "0")), maximumSeconds)
            }
            return .some(seconds)
        }
        if let delay { return delay }
        guard let date = HTTPDate.parse(value) else { return nil }
        return Swift.min(Swift.max(0, date.timeIntervalSince(now)), maximumSeconds)
    }
}

extension Duration {
    /// `seconds` as a duration clamped to `0...maximum`; NaN is zero.
    ///
    /// The one way a number that came from the network becomes a `Duration`:
    /// `Duration.seconds(_:)` traps on a value past about 1.7e20 or on a non-finite one.
    package static func clamped(seconds: Double, to maximum: Duration) -> Duration {
        guard seconds > 0 else { return .zero }
        return seconds >= maximum.seconds ? maximum : .seconds(seconds)
    }
}
