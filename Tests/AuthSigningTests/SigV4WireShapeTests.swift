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

/// Request shapes that services send and that a SigV4 signer must sign as they go on the wire:
/// found by differential testing against botocore and aws-c-auth (issue 19).
@Suite struct SigV4WireShapeTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)
    static let service = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "service"))
    static let s3 = SigV4Signer(credentials: credentials, configuration: .s3(region: "us-east-1"))

    static func request(_ url: String, method: HTTPRequest.Method = .get, fields: HTTPFields = [:]) throws -> AuthRequest {
        try AuthRequest(method: method, url: try #require(URL(string: url)), headerFields: fields)
    }

    static func lines(_ signature: SigV4Signature) -> [Substring] {
        signature.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test(arguments: [
        ("https://example.amazonaws.com:443/path", "example.amazonaws.com"),
        ("http://example.amazonaws.com:80/path", "example.amazonaws.com"),
        ("https://EXAMPLE.amazonaws.com/path", "example.amazonaws.com"),
        ("https://example.amazonaws.com:8443/path", "example.amazonaws.com:8443"),
        ("http://[::1]:80/path", "[::1]"),
    ])
    func signsTheHostTheTransportSends(url: String, host: String) throws {
        let request = try Self.request(url)
        let signature = try Self.service.signature(for: request, at: Self.date)
        #expect(Self.lines(signature).contains("host:\(host)"))
        // The transport connects to, and AsyncHTTPClient writes `Host` from, this URL's authority.
        let wire = try request.urlForTransport()
        let sentHost = wire.split(separator: "/", omittingEmptySubsequences: false)[2]
        #expect(sentHost == host)
    }

    @Test func anExplicitHostFieldIsSignedAsItIs() throws {
        let request = try Self.request("https://example.amazonaws.com:443/", fields: [try .named("Host"): "example.amazonaws.com:443"])
        #expect(Self.lines(try Self.service.signature(for: request, at: Self.date)).contains("host:example.amazonaws.com:443"))
    }

    @Test func escapesThatAreNotUTF8AreSignedAsTheirBytes() throws {
        let query = try Self.service.signature(for: try Self.request("https://h.example/?key=%FF%FE&%C3%A9=%e9"), at: Self.date)
        #expect(Self.lines(query)[2] == "%C3%A9=%E9&key=%FF%FE")
        let s3Key = try Self.s3.signature(for: try Self.request("https://bucket.s3.amazonaws.com/photos/a%FFb%20c.jpg"), at: Self.date)
        #expect(Self.lines(s3Key)[1] == "/photos/a%FFb%20c.jpg")
        let doubled = try Self.service.signature(for: try Self.request("https://h.example/a%FF"), at: Self.date)
        #expect(Self.lines(doubled)[1] == "/a%25FF")
    }

    @Test(arguments: [
        ("/a/b/.", "/a/b"), ("/a/b/..", "/a"), ("/a/b/", "/a/b/"), ("/..", "/"), ("/a/./b/../c/.", "/a/c"),
        ("//a//b//", "/a/b/"), ("/.", "/"),
    ])
    func normalizedPathsEndInASlashOnlyWhenTheyDo(path: String, canonical: String) throws {
        let signature = try Self.service.signature(for: try Self.request("https://h.example\(path)"), at: Self.date)
        #expect(Self.lines(signature)[1] == canonical)
    }

    @Test func doubleEncodedWithoutNormalizationKeepsEverySegment() throws {
        var configuration = SigV4Configuration(region: "us-east-1", service: "service")
        configuration.pathCanonicalization = .doubleEncoded
        let signer = SigV4Signer(credentials: Self.credentials, configuration: configuration)
        let signature = try signer.signature(for: try Self.request("https://h.example/a/./b//c%20d/.."), at: Self.date)
        #expect(Self.lines(signature)[1] == "/a/./b//c%2520d/..")
    }

    @Test func hopByHopAndTracingFieldsAreNeverSigned() throws {
        let fields: HTTPFields = [
            try .named("TE"): "trailers", try .named("Upgrade"): "h2c", try .named("Keep-Alive"): "timeout=5",
            try .named("Trailer"): "Expires", .proxyAuthorization: "Basic abc", try .named("traceparent"): "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            try .named("tracestate"): "congo=t61rcWkgMzE", try .named("baggage"): "userId=alice", .connection: "keep-alive, X-Hop",
            try .named("X-Hop"): "1", try .named("X-Kept"): "2",
        ]
        let signature = try Self.service.signature(for: try Self.request("https://h.example/", fields: fields), at: Self.date)
        #expect(signature.signedHeaders == "host;x-amz-date;x-kept")
        // Still sent: only the signature leaves them out.
        #expect(signature.request.head.headerFields[try .named("traceparent")] != nil)
    }

    @Test func aCallerSuppliedContentHashIsHonouredOutsideS3() throws {
        let supplied: HTTPFields = [try .named("X-Amz-Content-SHA256"): "UNSIGNED-PAYLOAD"]
        let request = try Self.request("https://h.example/upload", method: .put, fields: supplied)
        var withBody = request
        withBody.body = Data("payload".utf8)
        let signature = try Self.service.signature(for: withBody, at: Self.date)
        #expect(Self.lines(signature).last == "UNSIGNED-PAYLOAD")
        #expect(signature.signedHeaders.contains("x-amz-content-sha256"))
        #expect(signature.request.head.headerFields[try .named("X-Amz-Content-SHA256")] == "UNSIGNED-PAYLOAD")
        // Signing again (a retry) keeps the caller's value.
        let again = try Self.service.signature(for: signature.request, at: Self.date)
        #expect(again.signature == signature.signature)
        // S3 computes its own, as botocore's S3 signer does.
        let s3 = try Self.s3.signature(for: withBody, at: Self.date)
        #expect(Self.lines(s3).last == "239f59ed55e737c77147cf55ad0c1b030b6d7ee748a7426952f9b852d5a935e5")
    }

    @Test(arguments: [
        0.0, 951_782_400, 951_868_799, 1_440_938_160, 4_107_542_399, -86_401, 253_402_300_799,
    ])
    func timestampsAreUTCCalendarFields(seconds: TimeInterval) throws {
        let signed = try Self.service.signature(for: try Self.request("https://h.example/"), at: Date(timeIntervalSince1970: seconds))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let expected = formatter.string(from: Date(timeIntervalSince1970: seconds))
        #expect(signed.request.head.headerFields[try .named("X-Amz-Date")] == expected)
        #expect(signed.credentialScope.hasPrefix(String(expected.prefix(8))))
    }
}
