// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import AuthTesting
import Foundation
import HTTPTypes

/// Random requests of the shapes services send, written as an AWS SDK client puts them on the
/// wire: path and query escapes upper-case; in S3 keys and in every query name and value, every
/// byte outside RFC 3986's unreserved set escaped (botocore quotes them so, and signs the query
/// as it finds it in the URL).
struct SigV4RequestGenerator {
    var random: SeededRandom

    /// One generated case: the request, and how it is to be signed.
    struct Case: CustomStringConvertible {
        var request: AuthRequest
        var url: String
        var service: String
        var unsignedPayload: Bool
        var sessionToken: String?
        var description: String {
            let fields = request.head.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: " | ")
            return "\(request.head.method) \(url) [\(service)\(unsignedPayload ? ", unsigned payload" : "")\(sessionToken == nil ? "" : ", session token")] \(fields)"
        }
    }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func count(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }

    /// Raw bytes of a name, value or key: ASCII of every class, UTF-8, and bytes that are not UTF-8.
    mutating func bytes(_ length: ClosedRange<Int>) -> [UInt8] {
        (0..<count(length)).flatMap { _ -> [UInt8] in
            switch random.next() % 10 {
            case 0: [pick(Array("!$&'()*+,;=:@/?#[] %\"<>\\^`{|}".utf8))]
            case 1: Array(pick(["é", "日本", "🔑", "ß"]).utf8)
            case 2: [UInt8(0x80 + random.next() % 0x80)]   // a lone byte: not UTF-8
            case 3: [pick(Array("-._~".utf8))]
            default: [pick(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8))]
            }
        }
    }

    /// `bytes` escaped as botocore's `quote(…, safe='-_.~')` escapes them.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let unreserved = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || "-._~".utf8.contains(byte)
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// A path as a client sends it: for S3 every key segment escaped; elsewhere also dot
    /// segments, empty segments, raw sub-delimiters and escapes of bytes that are not UTF-8.
    mutating func path(s3: Bool) -> String {
        let segments = (0..<count(0...5)).map { _ -> String in
            if s3 { return Self.escaped(bytes(0...6)) }
            switch random.next() % 8 {
            case 0: return pick([".", "..", ""])
            case 1: return pick(["a+b", "x=y", "!$'()*,;:@", "a.", "..a", "%2F", "%FF%FE", "%e9", "%20"])
            default: return Self.escaped(bytes(1...6))
            }
        }
        var path = "/" + segments.joined(separator: "/")
        if !s3, chance(20) { path += pick(["/", "/.", "/..", "//"]) }
        return path
    }

    mutating func query() -> String? {
        guard chance(70) else { return nil }
        var pairs: [String] = []
        for _ in 0..<count(1...6) {
            let name = Self.escaped(bytes(1...5))
            switch random.next() % 6 {
            case 0: pairs.append(name)                                   // no `=`
            case 1: pairs.append("\(name)=")                             // empty value
            case 2 where !pairs.isEmpty: pairs.append(pairs[pairs.count - 1].split(separator: "=").first.map { "\($0)=\(Self.escaped(bytes(0...4)))" } ?? name)   // repeated name
            default: pairs.append("\(name)=\(Self.escaped(bytes(0...8)))")
            }
        }
        return pairs.joined(separator: "&")
    }

    /// Fields with mixed-case names, repeats, runs of spaces and tabs, and hop-by-hop and tracing
    /// fields.
    mutating func fields() -> HTTPFields {
        var fields = HTTPFields()
        let names = ["X-Custom", "x-custom", "Content-Type", "X-Amz-Meta-Note", "Accept", "X-Request-Id", "traceparent", "tracestate",
                     "baggage", "Keep-Alive", "TE", "Upgrade", "Proxy-Authorization", "Trailer", "User-Agent", "X-Amz-Target", "Cache-Control"]
        for _ in 0..<count(0...7) {
            guard let name = HTTPField.Name(pick(names)) else { continue }
            // Content-Type is a singleton field (RFC 9110 §8.3).
            if name == .contentType, fields[.contentType] != nil { continue }
            let words = (0..<count(1...4)).map { _ in Self.escaped(bytes(1...5)) }
            var value = ""
            for word in words { value += (value.isEmpty ? "" : pick([" ", "  ", "\t", " \t  "])) + word }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    mutating func next(s3: Bool) throws -> Case {
        let authority = pick(["example.amazonaws.com", "EXAMPLE.amazonaws.com:443", "bucket.s3.amazonaws.com", "example.amazonaws.com:8443"])
        let query = query().map { "?\($0)" } ?? ""
        let url = "https://\(authority)\(path(s3: s3))\(query)"
        guard let parsed = URL(string: url) else { throw GeneratorError(url: url) }
        let method = pick([HTTPRequest.Method.get, .post, .put, .delete, .head])
        var body = Data()
        if method == .post || method == .put, chance(70) { body = Data(bytes(0...200)) }
        var request = try AuthRequest(method: method, url: parsed, headerFields: fields(), body: body)
        if !s3, chance(10), let name = HTTPField.Name("X-Amz-Content-SHA256") {
            request.head.headerFields[name] = pick(["UNSIGNED-PAYLOAD", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"])
        }
        let token = chance(30) ? "FQoGZXIvYXdzE" + Self.escaped(bytes(4...20)) : nil
        return Case(request: request, url: url, service: s3 ? "s3" : "service", unsignedPayload: s3 && chance(40), sessionToken: token)
    }
}

struct GeneratorError: Error, CustomStringConvertible {
    let url: String
    var description: String { "generated a URL Foundation does not parse: \(url)" }
}
