// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// The canonical form of a URL query shared by SigV4 and the HMAC scheme.
///
/// The query (the part of the path after the first `?`) is split on `&`, each pair on its first
/// `=` (a pair without `=` has an empty value, empty pairs are dropped). Each name and value is
/// percent-decoded to bytes and then percent-encoded again with RFC 3986 rules (only
/// `A-Z a-z 0-9 - . _ ~` stay as they are, hex digits upper case; `+` is a literal plus and becomes
/// `%2B`; an escape of a byte that is not UTF-8, such as `%FF`, stays that byte). The pairs are
/// sorted by encoded name, then by encoded value (byte order) and joined as
/// `name=value&name=value`.
enum CanonicalQuery {
    /// The decoded `(name, value)` pairs of `query`, in order (invalid UTF-8 repaired; for
    /// display and lookups, never for what is signed).
    static func pairs(_ query: some StringProtocol) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (Encoding.percentDecode(pair[..<equals]), Encoding.percentDecode(pair[pair.index(after: equals)...]))
            }
            return (Encoding.percentDecode(pair), "")
        }
    }

    /// Appends the canonical form of the raw `query` with the already decoded `extra` pairs
    /// added, in one pass over the bytes: each pair is encoded once into `out`, then the encoded
    /// pairs are put in order by moving bytes, never by building strings.
    static func append(canonicalOf query: (some StringProtocol)?, extra: [(name: String, value: String)], to out: inout [UInt8]) {
        guard let query else {
            appendPairs(raw: UnsafeBufferPointer(start: nil, count: 0), extra: extra, to: &out)
            return
        }
        CanonicalBytes.withBytes(of: query) { appendPairs(raw: $0, extra: extra, to: &out) }
    }

    /// The work of ``append(canonicalOf:extra:to:)`` in two stack buffers (heap ones for long
    /// queries): the encoded pairs, and where each lies.
    private static func appendPairs(raw bytes: UnsafeBufferPointer<UInt8>, extra: [(name: String, value: String)], to out: inout [UInt8]) {
        var pairCount = extra.count + (bytes.isEmpty ? 0 : 1)
        for byte in bytes where byte == UInt8(ascii: "&") { pairCount += 1 }
        guard pairCount > 0 else { return }
        // Decoding never lengthens; encoding at most triples every byte.
        var capacity = 3 * bytes.count
        for (name, value) in extra { capacity += 3 * (name.utf8.count + value.utf8.count) }
        withUnsafeTemporaryAllocation(of: EncodedPair.self, capacity: pairCount) { pairs in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, capacity)) { scratch in
                var used = 0, count = 0
                func put(_ byte: UInt8) {
                    scratch[used] = byte
                    used += 1
                }
                func putEncoded(_ byte: UInt8) { CanonicalBytes.encode(byte, put) }
                func putReencoded(_ from: Int, _ to: Int) {
                    URIBytes.forEachPercentDecoded(UnsafeBufferPointer(rebasing: bytes[from..<to]), putEncoded)
                }
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                    if end > start {
                        var equals = start
                        while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                        let nameStart = used
                        putReencoded(start, equals)
                        let valueStart = used
                        if equals < end { putReencoded(equals + 1, end) }
                        pairs.initializeElement(at: count, to: EncodedPair(name: nameStart..<valueStart, value: valueStart..<used))
                        count += 1
                    }
                    start = end + 1
                }
                for (name, value) in extra {
                    let nameStart = used
                    for byte in name.utf8 { putEncoded(byte) }
                    let valueStart = used
                    for byte in value.utf8 { putEncoded(byte) }
                    pairs.initializeElement(at: count, to: EncodedPair(name: nameStart..<valueStart, value: valueStart..<used))
                    count += 1
                }
                let encoded = UnsafeBufferPointer(rebasing: scratch[..<used])
                var sorted = UnsafeMutableBufferPointer(rebasing: pairs[..<count])
                if count > 1 {
                    sorted.sort { lhs, rhs in
                        let byName = compare(encoded, lhs.name, rhs.name)
                        return byName != 0 ? byName < 0 : compare(encoded, lhs.value, rhs.value) < 0
                    }
                }
                out.reserveCapacity(out.count + used + 2 * count)
                for index in 0..<count {
                    if index > 0 { out.append(UInt8(ascii: "&")) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[sorted[index].name]))
                    out.append(UInt8(ascii: "="))
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: encoded[sorted[index].value]))
                }
                _ = sorted.deinitialize()
            }
        }
    }

    /// Byte order of two ranges of `bytes`: negative, zero or positive, as `memcmp`.
    @inline(__always)
    private static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let common = min(lhs.count, rhs.count)
        let order = common == 0 ? 0 : Int(memcmp(base + lhs.lowerBound, base + rhs.lowerBound, common))
        return order != 0 ? order : lhs.count - rhs.count
    }

    /// Where one encoded pair's name and value lie in the scratch buffer.
    private struct EncodedPair {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// Splits a request-target path into its path and its query (without `?`), if any.
    static func split(target: String) -> (path: Substring, query: Substring?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target[...], nil) }
        return (target[..<mark], target[target.utf8.index(after: mark)...])
    }
}
