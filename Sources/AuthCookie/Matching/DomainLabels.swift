// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A domain name prepared for a public suffix lookup: lower-cased, its one trailing dot set
/// aside, every label non-empty, and an ASCII form with international labels in Punycode.
struct DomainLabels {
    /// The name, lower-cased (and in NFC when it is not ASCII), without the trailing dot.
    let name: String
    /// ``name`` with every non-ASCII label in its `xn--` form.
    let ascii: String
    /// The number of labels.
    let labelCount: Int
    /// Whether the name was written fully qualified, with a trailing dot.
    let hasTrailingDot: Bool

    private static let dot = UInt8(ascii: ".")

    /// Nil when `domain` is empty, or has an empty label once one trailing dot is set aside
    /// (`.com`, `a..com`, `com..`, `.`), or has a label too long to encode.
    init?(_ domain: String) {
        guard let last = domain.utf8.last else { return nil }
        hasTrailingDot = last == Self.dot
        var body = hasTrailingDot ? String(domain.utf8.dropLast()) ?? domain : domain
        guard let (count, isASCII, hasUpperCase) = Self.scan(body) else { return nil }
        if !isASCII {
            body = body.lowercased().precomposedStringWithCanonicalMapping
        } else if hasUpperCase {
            body = body.lowercased()
        }
        if isASCII {
            ascii = body
        } else {
            var asciiLabels: [String] = []
            for label in body.utf8.split(separator: Self.dot, omittingEmptySubsequences: false) {
                guard let encoded = Punycode.asciiLabel(String(decoding: label, as: UTF8.self)) else { return nil }
                asciiLabels.append(encoded)
            }
            ascii = asciiLabels.joined(separator: ".")
        }
        name = body
        labelCount = count
    }

    /// The number of labels of `name`, whether it is ASCII, whether it has an ASCII capital;
    /// nil when it is empty or a label is.
    private static func scan(_ name: String) -> (labels: Int, isASCII: Bool, hasUpperCase: Bool)? {
        var labels = 1, previous = dot, isASCII = true, hasUpperCase = false
        for byte in name.utf8 {
            if byte == dot {
                guard previous != dot else { return nil }
                labels += 1
            } else if byte >= 0x80 {
                isASCII = false
            } else if byte >= 0x41, byte <= 0x5A {
                hasUpperCase = true
            }
            previous = byte
        }
        return previous == dot ? nil : (labels, isASCII, hasUpperCase)
    }

    /// The last `labels` labels of the name, with the trailing dot if it had one.
    func suffix(labels: Int) -> String {
        let bytes = name.utf8
        var start = bytes.endIndex, dots = 0
        while start > bytes.startIndex {
            let previous = bytes.index(before: start)
            if bytes[previous] == Self.dot {
                dots += 1
                if dots == labels { break }
            }
            start = previous
        }
        return String(name[start...]) + (hasTrailingDot ? "." : "")
    }
}
