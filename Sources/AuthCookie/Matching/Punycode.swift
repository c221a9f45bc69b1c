// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The Punycode encoder of RFC 3492, for the international labels of the public suffix list.
///
/// The list writes international rules in Unicode (`公司.cn`), while cookie domains and URL hosts
/// usually carry their ASCII form (`xn--55qx5d.cn`); the rules are compiled in the ASCII form and
/// Unicode input is encoded the same way before a lookup. No UTS #46 mapping is applied: callers
/// pass lower-cased, NFC labels.
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 128

    /// The longest label, in Unicode scalars, that is encoded; a DNS label is at most 63 bytes,
    /// and the bound keeps the arithmetic far from overflow.
    static let maxLabelScalars = 255

    /// `label` in its ASCII form: itself when it is ASCII, else `xn--` and its Punycode encoding.
    /// Nil when the label is longer than ``maxLabelScalars``.
    static func asciiLabel(_ label: some StringProtocol) -> String? {
        if label.utf8.allSatisfy({ $0 < 0x80 }) { return String(label) }
        return encode(label.unicodeScalars).map { "xn--" + $0 }
    }

    /// The Punycode encoding of `input` (RFC 3492 §6.3), without the `xn--` prefix.
    static func encode(_ input: some Collection<Unicode.Scalar>) -> String? {
        let codePoints = input.map { Int($0.value) }
        guard codePoints.count <= maxLabelScalars else { return nil }
        var output: [UInt8] = codePoints.filter { $0 < 0x80 }.map { UInt8($0) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = initialN, delta = 0, bias = initialBias, handled = basicCount
        while handled < codePoints.count {
            guard let next = codePoints.filter({ $0 >= n }).min() else { break }
            delta += (next - n) * (handled + 1)
            n = next
            for codePoint in codePoints {
                if codePoint < n { delta += 1 }
                guard codePoint == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta: delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Bias adaptation (RFC 3492 §6.1).
    private static func adapt(delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// The basic code point for digit `value` (0–25 → `a`–`z`, 26–35 → `0`–`9`).
    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(value) + UInt8(ascii: "a") : UInt8(value - 26) + UInt8(ascii: "0")
    }
}
