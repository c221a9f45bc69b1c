// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import HTTPTypes

/// The canonical URI and header rules of SigV4, written as bytes.
enum SigV4Canonicalizer {
    /// Appends the canonical URI of a request path (without its query) to `out`.
    static func appendCanonicalURI(_ path: Substring, rule: SigV4Configuration.PathCanonicalization, to out: inout [UInt8]) {
        CanonicalBytes.withBytes(of: path) { bytes in
            guard !bytes.isEmpty else {
                out.append(UInt8(ascii: "/"))
                return
            }
            switch rule {
            case .s3:
                // Each segment decoded to bytes and encoded once; `/` separates, as sent.
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                    out.appendReencoding(of: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    if end < bytes.count { out.append(UInt8(ascii: "/")) }
                    start = end + 1
                }
            case .doubleEncoded:
                out.appendEncoding(of: bytes, keepingSlash: true)
            case .normalizedDoubleEncoded:
                appendNormalized(bytes, to: &out)
            }
        }
    }

    /// RFC 3986 §5.2.4 dot-segment removal with empty segments dropped (as the AWS SDKs do), then
    /// each segment encoded as it is sent. A trailing `/` stays only when the path ends in one:
    /// `/a/b/..` becomes `/a`, like botocore, the AWS SDK for Java and aws-c-auth.
    private static func appendNormalized(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var segments: [Range<Int>] = []
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            let length = end - start
            if length == 1, bytes[start] == UInt8(ascii: ".") {
                // `.`: drop.
            } else if length == 2, bytes[start] == UInt8(ascii: "."), bytes[start + 1] == UInt8(ascii: ".") {
                _ = segments.popLast()
            } else if length > 0 {
                segments.append(start..<end)
            }
            start = end + 1
        }
        out.append(UInt8(ascii: "/"))
        for (index, segment) in segments.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "/")) }
            out.appendEncoding(of: UnsafeBufferPointer(rebasing: bytes[segment]))
        }
        if !segments.isEmpty, bytes.last == UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
    }

    /// Appends the canonical header lines (lower-cased names in byte order, values trimmed with
    /// runs of spaces and tabs collapsed, repeated fields joined by `,` in the order they appear,
    /// each line ended by LF), an empty line, and the signed header list (`;`-separated) to
    /// `out`, as they follow each other in a canonical request.
    ///
    /// Fields in `excluding`, and fields a `Connection` field names, are left out. `host` is
    /// the `Host` field when the request has one, else `host`: the value the transport sends.
    /// - Returns: Where the signed header list lies in `out`.
    static func appendCanonicalHeaders(
        _ fields: HTTPFields, host: String, excluding: HeaderExclusion, to out: inout [UInt8]
    ) -> Range<Int> {
        let connectionNamed = connectionOptions(fields)
        return withUnsafeTemporaryAllocation(of: (name: String, index: Int).self, capacity: fields.count + 1) { buffer in
            var count = 0
            var hasHost = false
            for index in fields.indices {
                let name = fields[index].name.canonicalName
                if excluding.contains(name) || connectionNamed?.contains(name) == true { continue }
                if name == "host" { hasHost = true }
                buffer.initializeElement(at: count, to: (name, index))
                count += 1
            }
            if !hasHost {
                buffer.initializeElement(at: count, to: ("host", -1))
                count += 1
            }
            var entries = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
            defer { _ = entries.deinitialize() }
            entries.sort { $0.name == $1.name ? $0.index < $1.index : $0.name < $1.name }

            for position in 0..<count {
                let entry = entries[position]
                if position > 0, entries[position - 1].name == entry.name {
                    out.append(UInt8(ascii: ","))
                } else {
                    if position > 0 { out.append(UInt8(ascii: "\n")) }
                    out.appendUTF8(entry.name)
                    out.append(UInt8(ascii: ":"))
                }
                if entry.index < 0 {
                    CanonicalBytes.withBytes(of: host) { appendNormalized(value: $0, to: &out) }
                } else {
                    fields[entry.index].withUnsafeBytesOfValue { appendNormalized(value: $0, to: &out) }
                }
            }
            out.append(UInt8(ascii: "\n"))
            out.append(UInt8(ascii: "\n"))
            let signedStart = out.count
            for position in 0..<count where position == 0 || entries[position - 1].name != entries[position].name {
                if position > 0 { out.append(UInt8(ascii: ";")) }
                out.appendUTF8(entries[position].name)
            }
            return signedStart..<out.count
        }
    }

    /// The lower-cased field names listed in the request's `Connection` fields, if any.
    private static func connectionOptions(_ fields: HTTPFields) -> Set<String>? {
        let values = fields[values: .connection]
        guard !values.isEmpty else { return nil }
        var names = Set<String>()
        for value in values {
            for option in value.split(separator: ",") {
                let trimmed = option.trimmingSpaces()
                if !trimmed.isEmpty { names.insert(trimmed.lowercased()) }
            }
        }
        return names
    }

    /// Appends `value` trimmed, each run of spaces and tabs collapsed into one space.
    static func appendNormalized(value: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if isNormalized(value) {
            out.append(contentsOf: value)
            return
        }
        var pendingSpace = false
        var wroteAny = false
        for byte in value {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = true
            } else {
                if pendingSpace, wroteAny { out.append(UInt8(ascii: " ")) }
                pendingSpace = false
                wroteAny = true
                out.append(byte)
            }
        }
    }

    /// Whether `value` has no tab, no space at either end and no two spaces in a row: most
    /// values, which are then copied as they are.
    private static func isNormalized(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = value.first, let last = value.last else { return true }
        guard first != UInt8(ascii: " "), last != UInt8(ascii: " ") else { return false }
        var previousWasSpace = false
        for byte in value {
            if byte == UInt8(ascii: "\t") { return false }
            let isSpace = byte == UInt8(ascii: " ")
            if isSpace, previousWasSpace { return false }
            previousWasSpace = isSpace
        }
        return true
    }
}
