// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The raw server the size-limit tests rely on delivers its whole answer to a client that reads
/// late. CI saw a 2 MiB chunked token response end as a reset connection (`.transport`) instead
/// of as an answer over the limit: the server closed with the request body unread, which resets
/// the connection and drops what the client had not read yet.
struct RawHTTPServerTests {
    @Test func aClientThatReadsLateGetsTheWholeAnswerThoughItsBodyWasNeverRead() async throws {
        let answerBody = String(repeating: "a", count: 100_000)
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: \(answerBody.utf8.count)\r\n\r\n" + answerBody)
        defer { server.close() }
        let client = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(server.port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        // A body far larger than the server's first read of the head: most of it stays unread.
        let requestBody = String(repeating: "b", count: 64 << 10)
        let request = Array("POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: \(requestBody.utf8.count)\r\n\r\n\(requestBody)".utf8)
        #expect(request.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
        // The server answers and is done with the connection before the client reads a byte.
        try await Task.sleep(for: .milliseconds(500))
        var received = 0
        var failure: Int32 = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(client, &buffer, buffer.count)
            if count < 0 { failure = errno; break }
            if count == 0 { break }
            received += count
        }
        #expect(failure == 0, "reading the answer failed with errno \(failure)")
        #expect(received > answerBody.utf8.count)
    }
}
