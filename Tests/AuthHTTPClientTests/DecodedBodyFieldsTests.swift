// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Testing

/// A response's header fields describe the body the transport hands over. AsyncHTTPClient hands
/// a gzip body over as it came, `Content-Encoding` and all; URLSession decodes it (libcurl on
/// Linux, always), and kept the compressed body's `Content-Encoding` and `Content-Length`, so a
/// cache, a digest or a signature check saw a response that did not match its body.
@Suite struct DecodedBodyFieldsTests {
    @Test(arguments: TransportKind.allCases)
    func aGzipBodysFieldsMatchTheBodyHandedOver(kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                let response = try await transport.send(AuthRequest(method: .get, url: base.appending(path: "gzip")))
                #expect(response.status == .ok)
                let fields = response.head.headerFields
                if let coding = fields[.contentEncoding] {
                    #expect(coding == "gzip")
                    #expect(response.body == Data(EchoServer.gzipped))
                } else {
                    #expect(response.body == Data(EchoServer.plain.utf8))
                }
                if let length = fields[.contentLength] {
                    #expect(Int(length) == response.body.count, "Content-Length \(length), body \(response.body.count) bytes")
                }
                #expect(fields[.contentType] == "text/plain")
            }
        }
    }
}
