// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import HTTPTypes
import NIOHTTP1

/// AsyncHTTPClient's response fields, made into `HTTPFields` only when something reads the
/// response's `head`. The fields the standard pipeline reads (`Date`, the first response of each
/// second; `X-RateLimit-Remaining`, while something follows the events) are found by a pass over
/// the fields when they are read, not on every response.
struct ResponseHead: ResponseHeadSource {
    let headers: HTTPHeaders

    /// The value of the first `Content-Length` field of `headers`, as AsyncHTTPClient reads it
    /// (`first(name:)`); nil without one. The transport reads it before the body when it bounds
    /// the body's reads itself.
    static func contentLength(in headers: HTTPHeaders) -> String? {
        for header in headers where isName(header.name, "content-length") { return header.value }
        return nil
    }

    /// Every field whose name is valid, in order; values as `HTTPField` makes them (bytes a value
    /// may not hold become spaces).
    func headerFields() -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for header in headers {
            // `append` reaches HTTPTypes' own specialized `replaceSubrange`; calling
            // `replaceSubrange` from here runs its unspecialized generic form (25 × the cost).
            if let name = ResponseFieldNames.name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    /// What `headerFields().value(name)` gives, from a pass over the fields.
    func value(_ name: HTTPField.Name) -> String? {
        // Not NIO's `headers[name]`: its case fold takes `^` for `~` and control bytes for
        // punctuation, where HTTP names differ.
        let canonical = name.canonicalName
        var value: String?
        for header in headers where Self.isName(header.name, canonical) {
            // As `HTTPField` keeps it: as it is when legal, else with the bytes it may not hold made spaces.
            let field = Self.isLegal(header.value) ? header.value : HTTPField(name: name, value: header.value).value
            value = value.map { $0 + (name == .cookie ? "; " : ", ") + field } ?? field
        }
        return value
    }

    /// Whether `raw` names the field whose canonical name is `canonical`.
    private static func isName(_ raw: String, _ canonical: String) -> Bool {
        guard raw.utf8.count == canonical.utf8.count else { return false }
        return withUTF8Bytes(raw) { raw in withUTF8Bytes(canonical) { ResponseFieldNames.isName(raw, canonical: $0) } }
    }

    /// Whether `HTTPField` keeps `value` as it is (RFC 9110 §5.5): visible ASCII, obs-text,
    /// spaces and tabs, but neither first nor last.
    ///
    /// Eight bytes at a time while no byte of a word is a control byte: a `Date` value costs
    /// about 170 instructions instead of 300.
    static func isLegal(_ value: String) -> Bool {
        withUTF8Bytes(value, isLegal)
    }

    private static func isLegal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        guard first != 0x20, first != 0x09, last != 0x20, last != 0x09 else { return false }
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count, !holdsControlByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { return false }
            index += 1
        }
        return true
    }

    /// Whether one of the word's bytes is below 0x20 or is 0x7F (exact: the borrow trick finds
    /// whether such a byte exists, though not which).
    private static func holdsControlByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let deletes = word ^ (ones &* 0x7F)
        let is0x7F = (deletes &- ones) & ~deletes & highs
        return below0x20 | is0x7F != 0
    }
}
