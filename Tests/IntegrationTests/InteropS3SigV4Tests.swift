// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthSigning
import AuthURLSession
import Foundation
import HTTPTypes
import Testing

/// AuthKit's SigV4 signer and transports against an independent S3-compatible server that
/// verifies SigV4: moto in server mode with IAM authentication on (`Interop/moto_s3_server.py`).
/// moto recomputes each signature with botocore's S3 signer from the request target as it
/// arrived, so a target sent otherwise than signed is refused (issue 51: a key with a raw `(1)`
/// was signed as `%281%29` and sent raw). Objects whose keys hold every reserved character, raw
/// and escaped, spaces, `%` and unicode go in and come back byte for byte, over both transports,
/// with header signatures and with presigned URLs.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropS3SigV4Tests {
    static let accessKey = "AKIAINTEROPEXAMPLE01"
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let bucket = "interop-bucket"
    static let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: accessKey, secretAccessKey: secret), configuration: .s3(region: "us-east-1"))

    /// Keys as written on the request (after `/bucket/`), and another spelling of the same key
    /// that reads the same object.
    static let keys: [(written: String, alias: String?)] = [
        ("photo(1).jpg", "photo%281%29.jpg"),                                      // the key
        ("sub-delims !$&'()*+,;= raw".replacingOccurrences(of: " ", with: "%20"), "sub-delims%20%21%24%26%27%28%29%2A%2B%2C%3B%3D%20raw"),
        ("%21%24%26%27%28%29%2A%2B%2C%3B%3D", "!$&'()*+,;="),                      // sub-delims escaped
        ("gen:delims@raw", "gen%3Adelims%40raw"),                                  // the gen-delims a path may hold raw
        ("%3A%2F%3F%23%5B%5D%40", nil),                                            // every gen-delim escaped (`/` within the key)
        ("a[b]c{d}|e^f`g\\h\"i<j>", "a%5Bb%5Dc%7Bd%7D%7Ce%5Ef%60g%5Ch%22i%3Cj%3E"), // bytes a URL may not hold raw
        ("dir/sub/file.txt", nil),
        ("a%20b%20%20c", nil),                                                     // spaces
        ("100%", "100%25"),                                                        // a bare `%`
        ("%25%2525", nil),
        ("a+b", "a%2Bb"),                                                          // `+` is a plus in a path
        ("~%7e%7E", "~~~"),
        ("café (1).txt".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "", "caf%c3%a9%20%281%29.txt"),
        ("%E6%97%A5%E6%9C%AC%F0%9F%98%80", nil),                                   // CJK and an emoji
        ("..x/.hidden/-_.~", nil),
    ]

    /// A request to the peer with `target` exactly as written (no URL parser in between).
    static func request(_ method: HTTPRequest.Method, _ target: String, peer: InteropPeer, body: Data = Data()) -> AuthRequest {
        let authority = "127.0.0.1:\(peer.base.port ?? 0)"
        return AuthRequest(head: HTTPRequest(method: method, scheme: "http", authority: authority, path: target), body: body)
    }

    static func send(_ request: AuthRequest, signer: SigV4Signer = signer, _ transport: any Transport) async throws -> AuthResponse {
        var request = request
        try await signer.sign(&request, at: Date())
        return try await transport.send(request)
    }

    static func text(_ response: AuthResponse) -> String { String(decoding: response.body.prefix(2000), as: UTF8.self) }

    @Test(arguments: TransportKind.allCases)
    func objectsWithEveryReservedCharacterRoundTrip(kind: TransportKind) async throws {
        try await InteropPeer.run("moto_s3_server.py", arguments: ["--access-key", Self.accessKey, "--secret", Self.secret]) { peer in
            try await kind.withTransport { transport in
                let created = try await Self.send(Self.request(.put, "/\(Self.bucket)", peer: peer), transport)
                try #require(created.status.code == 200, "CreateBucket: \(Self.text(created))")
                for (index, key) in Self.keys.enumerated() {
                    let body = Data("object \(index) \(key.written)\n".utf8) + [0x00, 0xFF, 0x80, 0x0D, 0x0A]
                    let put = try await Self.send(Self.request(.put, "/\(Self.bucket)/\(key.written)", peer: peer, body: body), transport)
                    #expect(put.status.code == 200, "\(kind) PUT \(key.written): \(Self.text(put))")
                    for spelling in [key.written] + (key.alias.map { [$0] } ?? []) {
                        let get = try await Self.send(Self.request(.get, "/\(Self.bucket)/\(spelling)", peer: peer), transport)
                        #expect(get.status.code == 200, "\(kind) GET \(spelling): \(Self.text(get))")
                        #expect(get.body == body, "\(kind) GET \(spelling) read another object")
                    }
                }
                // A query with raw sub-delimiters and `/` in a value, signed and sent alike.
                let typed = try await Self.send(
                    Self.request(.get, "/\(Self.bucket)/photo(1).jpg?response-content-type=text/plain;charset=utf-8(1)&response-cache-control=no-cache,private", peer: peer),
                    transport)
                #expect(typed.status.code == 200, "\(kind): \(Self.text(typed))")
                #expect(typed.head.headerFields[.contentType] == "text/plain;charset=utf-8(1)")
                // A listing: every key is there once, as it was stored.
                let listing = try await Self.send(Self.request(.get, "/\(Self.bucket)?list-type=2&max-keys=1000", peer: peer), transport)
                #expect(listing.status.code == 200, "\(kind): \(Self.text(listing))")
                #expect(String(decoding: listing.body, as: UTF8.self).components(separatedBy: "<Key>").count - 1 == Self.keys.count)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func presignedURLsWithEveryReservedCharacterWork(kind: TransportKind) async throws {
        try await InteropPeer.run("moto_s3_server.py", arguments: ["--access-key", Self.accessKey, "--secret", Self.secret]) { peer in
            try await kind.withTransport { transport in
                let created = try await Self.send(Self.request(.put, "/\(Self.bucket)", peer: peer), transport)
                try #require(created.status.code == 200, "CreateBucket: \(Self.text(created))")
                for (index, key) in Self.keys.enumerated() {
                    let body = Data("presigned \(index) \(key.written)\n".utf8) + [0xFE, 0x00]
                    let put = try Self.signer.presign(Self.request(.put, "/\(Self.bucket)/\(key.written)", peer: peer, body: body), at: Date(), expires: 300)
                    #expect(put.request.head.headerFields[.authorization] == nil)
                    let stored = try await transport.send(put.request)
                    #expect(stored.status.code == 200, "\(kind) presigned PUT \(key.written): \(Self.text(stored))")
                    for spelling in [key.written] + (key.alias.map { [$0] } ?? []) {
                        let get = try Self.signer.presign(Self.request(.get, "/\(Self.bucket)/\(spelling)", peer: peer), at: Date(), expires: 300)
                        let read = try await transport.send(get.request)
                        #expect(read.status.code == 200, "\(kind) presigned GET \(spelling): \(Self.text(read))")
                        #expect(read.body == body, "\(kind) presigned GET \(spelling) read another object")
                    }
                }
            }
        }
    }

    /// The server does check: a wrong secret, and a target changed after signing, are refused,
    /// with header signatures and presigned URLs alike.
    @Test(arguments: TransportKind.allCases)
    func aWrongSignatureIsRefused(kind: TransportKind) async throws {
        try await InteropPeer.run("moto_s3_server.py", arguments: ["--access-key", Self.accessKey, "--secret", Self.secret]) { peer in
            try await kind.withTransport { transport in
                let created = try await Self.send(Self.request(.put, "/\(Self.bucket)", peer: peer), transport)
                try #require(created.status.code == 200, "CreateBucket: \(Self.text(created))")
                let target = "/\(Self.bucket)/photo(1).jpg"
                let put = try await Self.send(Self.request(.put, target, peer: peer, body: Data("x".utf8)), transport)
                try #require(put.status.code == 200, "\(Self.text(put))")

                let wrong = SigV4Signer(credentials: AWSCredentials(accessKeyID: Self.accessKey, secretAccessKey: "not-the-secret"), configuration: .s3(region: "us-east-1"))
                let refused = try await Self.send(Self.request(.get, target, peer: peer), signer: wrong, transport)
                #expect(refused.status.code == 403, "\(kind): \(Self.text(refused))")
                #expect(Self.text(refused).contains("SignatureDoesNotMatch"))

                var tampered = Self.request(.get, target, peer: peer)
                try await Self.signer.sign(&tampered, at: Date())
                tampered.head.path = "/\(Self.bucket)/photo%281%29.jpg?versionId=1"
                #expect(try await transport.send(tampered).status.code == 403)

                let presignedWrong = try wrong.presign(Self.request(.get, target, peer: peer), at: Date(), expires: 300)
                #expect(try await transport.send(presignedWrong.request).status.code == 403)
                let presigned = try Self.signer.presign(Self.request(.get, target, peer: peer), at: Date(), expires: 300)
                #expect(try await transport.send(presigned.request).status.code == 200)
            }
        }
    }
}
