// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Foundation
import HTTPTypes
import Testing

/// The signer's half of "what is signed is what is sent": after signing, the request's target is
/// the one the canonical request was made from. For S3 the canonical URI is the path as sent,
/// byte for byte, and for every service the canonical query is the sent query's pairs, sorted,
/// unchanged: a verifier that signs the target as it arrived (botocore's S3SigV4Auth, moto) and
/// one that canonicalizes it (AWS) then compute the same signature (issue 51).
@Suite struct SigV4TargetTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)
    static let s3 = SigV4Signer(credentials: credentials, configuration: .s3(region: "us-east-1"))
    static let service = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "service"))
    static let unnormalized = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "service", pathCanonicalization: .doubleEncoded))

    /// Keys with every reserved character raw and escaped, spaces, `%`, unicode, `(1)`, and
    /// queries with raw sub-delimiters, `+`, lower-case escapes and empty pairs.
    static let targets = [
        "/bucket/photo(1).jpg", "/bucket/a!$&'()*+,;=b", "/bucket/a:b@c", "/bucket/%21%24%26%27%28%29%2A%2B%2C%3B%3D",
        "/bucket/%3A%2F%3F%23%5B%5D%40", "/bucket/a[b]c", "/bucket/a%20b", "/bucket/100%", "/bucket/%25", "/bucket/%7e~%7E",
        "/bucket/caf%C3%A9/%e6%97%a5%e6%9c%ac", "/bucket/%FF%FE", "/bucket/a/./b/../c//d/", "/bucket/%2F", "/",
        "/bucket/k?q=a(1)&r=a+b&s=%e9&&t", "/bucket/?acl", "/bucket/?list-type=2&prefix=a%20b!&delimiter=/",
        "/bucket/k?X=1&x=2&x=1", "/bucket/k?a=b=c&%3D=%26",
    ]

    static func lines(_ signature: SigV4Signature) -> [Substring] {
        signature.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)
    }

    static func request(_ target: String) -> AuthRequest {
        AuthRequest(head: HTTPRequest(method: .put, scheme: "https", authority: "bucket.s3.amazonaws.com", path: target), body: Data("x".utf8))
    }

    /// The sent target's path and query, and its query's pairs sorted by byte order.
    static func split(_ target: String) -> (path: Substring, sortedQuery: String) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var pairs: [(name: [UInt8], value: [UInt8])] = []
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                pairs.append((Array(halves[0].utf8), halves.count > 1 ? Array(halves[1].utf8) : []))
            }
        }
        let sorted = pairs.sorted { (lhs: (name: [UInt8], value: [UInt8]), rhs: (name: [UInt8], value: [UInt8])) -> Bool in
            lhs.name == rhs.name ? lhs.value.lexicographicallyPrecedes(rhs.value) : lhs.name.lexicographicallyPrecedes(rhs.name)
        }
        return (parts[0], sorted.map { String(decoding: $0.name + [UInt8(ascii: "=")] + $0.value, as: UTF8.self) }.joined(separator: "&"))
    }

    @Test(arguments: targets)
    func s3SignsTheTargetItSends(target: String) async throws {
        var request = Self.request(target)
        try await Self.s3.sign(&request, at: Self.date)
        let sent = try #require(request.head.path)
        let signature = try Self.s3.signature(for: Self.request(target), at: Self.date)
        let (path, sortedQuery) = Self.split(sent)
        #expect(Self.lines(signature)[1] == path, "\(target) is sent as \(sent)")
        #expect(Self.lines(signature)[2] == sortedQuery[...], "\(target) is sent as \(sent)")
        #expect(signature.request.head.path == sent)
        // Sent as signed, it signs the same again: the signed spelling is a fixed point.
        var again = request
        try await Self.s3.sign(&again, at: Self.date)
        #expect(again.head.path == sent)
        #expect(again.head.headerFields[.authorization] == request.head.headerFields[.authorization])
    }

    /// The case: a key written with raw `(1)` goes on the wire as `%281%29`, the spelling
    /// signed, instead of being signed as `%281%29` and sent raw.
    @Test func aKeyWithRawParenthesesIsSentAsSigned() async throws {
        var request = Self.request("/bucket/photo(1).jpg?tagging=a(1)+b")
        try await Self.s3.sign(&request, at: Self.date)
        #expect(request.head.path == "/bucket/photo%281%29.jpg?tagging=a%281%29%2Bb")
        let lines = Self.lines(try Self.s3.signature(for: Self.request("/bucket/photo(1).jpg?tagging=a(1)+b"), at: Self.date))
        #expect(lines[1] == "/bucket/photo%281%29.jpg")
        #expect(lines[2] == "tagging=a%281%29%2Bb")
    }

    /// Other services encode the path as sent once more: the path is not rewritten (its canonical
    /// URI is a function of the bytes sent), and stays encoded twice in the canonical request.
    @Test(arguments: targets)
    func otherServicesKeepThePathAndDoubleEncodeIt(target: String) async throws {
        var request = Self.request(target)
        try await Self.unnormalized.sign(&request, at: Self.date)
        let sent = try #require(request.head.path)
        let (path, sortedQuery) = Self.split(sent)
        #expect(path == Self.split(target).path)
        let lines = Self.lines(try Self.unnormalized.signature(for: Self.request(target), at: Self.date))
        var doubled = ""
        for byte in path.utf8 {
            doubled += URIBytes.isUnreserved(byte) || byte == UInt8(ascii: "/") ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }
        #expect(lines[1] == doubled[...])
        #expect(lines[2] == sortedQuery[...])
    }

    @Test func otherServicesStillNormalizeAndDoubleEncode() async throws {
        var request = Self.request("/a%20b/./c/../d(1)?q=a b".replacingOccurrences(of: " ", with: "%20"))
        try await Self.service.sign(&request, at: Self.date)
        #expect(request.head.path == "/a%20b/./c/../d(1)?q=a%20b")
        let lines = Self.lines(try Self.service.signature(for: request, at: Self.date))
        #expect(lines[1] == "/a%2520b/d%281%29")
    }

    /// A presigned URL's target is the one signed, with the signature's items appended.
    @Test(arguments: ["/bucket/photo(1).jpg", "/bucket/a!$&'()*+,;=:@[]%20%25caf%C3%A9", "/bucket/k?q=a(1)&r=a+b"])
    func presignedTargetsAreSentAsSigned(target: String) throws {
        let presigned = try Self.s3.presign(Self.request(target), at: Self.date, expires: 600)
        let sent = try #require(presigned.request.head.path)
        let (path, sortedQuery) = Self.split(sent)
        let lines = Self.lines(presigned)
        #expect(lines[1] == path)
        let signedQuery = sortedQuery.split(separator: "&").filter { !$0.hasPrefix("X-Amz-Signature=") }.joined(separator: "&")
        #expect(lines[2] == signedQuery[...])
    }
}
