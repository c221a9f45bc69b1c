// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-connection HTTP/1.1 server on a plain socket: it records the request head byte for
/// byte, as it arrived, and answers with `answer` (by default `200 OK` with no body), then with
/// each of `later`'s parts after its pause, then closes the connection. For asserting what is
/// on the wire, which a server framework would normalize (it re-joins repeated `Cookie` fields,
/// say), and for bodies that come slowly or stop. `close()` ends a pause at once. With
/// `repeating`, its bytes go `times` times right after the answer, as fast as the client reads
/// them (a body larger than memory, never held whole), until the client goes away. The connection
/// is closed only after the client has read the answer and closed its side.
final class RawHTTPServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let received = NSLock()
    private var heads: [String] = []
    /// Guards `isClosed`, and wakes a pause when the server closes.
    private let closing = NSCondition()
    private var isClosed = false
    private let answer: [UInt8]
    private let later: [(pause: Duration, bytes: [UInt8])]
    private let repeating: (bytes: [UInt8], times: Int)?
    /// Guards `repeatedBytes` and `wholeAnswers`.
    private let sentCount = NSLock()
    /// How many bytes of `repeating` went out.
    private var repeatedBytes = 0
    /// How many connections got every part of `later`.
    private var wholeAnswers = 0

    init(
        answer: String = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
        repeating: (bytes: String, times: Int)? = nil, later: [(pause: Duration, bytes: String)] = []
    ) throws {
        self.answer = Array(answer.utf8)
        self.repeating = repeating.map { (Array($0.bytes.utf8), $0.times) }
        self.later = later.map { ($0.pause, Array($0.bytes.utf8)) }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        port = try bindToLoopback(socket)
        guard listen(socket, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread { [self] in serve() }.start()
    }

    /// `http://127.0.0.1:<port>/`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// How many bytes of `repeating` the server could send.
    var repeatedBytesSent: Int { sentCount.withLock { repeatedBytes } }

    /// How many connections were sent the whole answer, every part of `later` after its pause.
    /// A request that ended while this is 0 ended before the server's end: the fact a test of a
    /// deadline asserts, instead of a bound on elapsed time that a loaded machine stretches (CI
    /// held a whole test process for 20 s at its start).
    var wholeAnswersSent: Int { sentCount.withLock { wholeAnswers } }

    /// The request heads received so far, each up to its blank line.
    var requestHeads: [String] { received.withLock { heads } }

    /// Stops listening and ends a pause in progress. The serving thread closes the socket when
    /// it stops, so that its number is not reused under it.
    func close() {
        closing.withLock {
            isClosed = true
            closing.broadcast()
        }
        // `accept` then fails, now and on every later call.
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Waits `duration`; false when the server closed meanwhile.
    private func pause(_ duration: Duration) -> Bool {
        let (seconds, attoseconds) = duration.components
        let end = Date().addingTimeInterval(Double(seconds) + Double(attoseconds) * 1e-18)
        return closing.withLock {
            while !isClosed, closing.wait(until: end) {}
            return !isClosed
        }
    }

    private func serve() {
        defer { Glibc.close(socket) }
        while true {
            let connection = accept(socket, nil, nil)
            guard connection >= 0, closing.withLock({ !isClosed }) else {
                if connection >= 0 { Glibc.close(connection) }
                return
            }
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Up to the end of the head; a request body that came with it is read and ignored.
            while !data.containsHeadEnd {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                data += buffer[0..<count]
            }
            received.withLock { heads.append(String(decoding: data, as: UTF8.self)) }
            // `send` without SIGPIPE: the client may be gone (it timed out) when a later part goes.
            _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if let repeating {
                for _ in 0..<repeating.times {
                    let sent = repeating.bytes.withUnsafeBytes { sendAll(connection, $0) }
                    sentCount.withLock { repeatedBytes += sent }
                    guard sent == repeating.bytes.count, closing.withLock({ !isClosed }) else { break }
                }
            }
            for (index, part) in later.enumerated() {
                guard pause(part.pause) else { break }
                // Counted before the last part goes: a client that has it may check at once.
                if index == later.count - 1 { sentCount.withLock { wholeAnswers += 1 } }
                _ = part.bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            closeAfterTheClientRead(connection)
        }
    }
}

/// Closes `connection` only once the client has read what was sent. Closing a socket whose
/// receive buffer still holds request bytes (a request body this server never reads) sends a
/// reset, and the client's kernel then drops whatever the client had not read yet: a 2 MiB
/// answer that a loaded client read slowly ended as a reset connection instead of as a body over
/// the size limit. So: no more writes (the client reads the end of the answer), then read and
/// discard until the client closes, at most 10 s, then close.
private func closeAfterTheClientRead(_ connection: Int32) {
    shutdown(connection, Int32(SHUT_WR))
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while read(connection, &buffer, buffer.count) > 0 {}
    Glibc.close(connection)
}

/// Sends all of `bytes` unless the connection fails first; how many went.
private func sendAll(_ connection: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    var offset = 0
    while offset < bytes.count {
        let count = send(connection, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
        guard count > 0 else { break }
        offset += count
    }
    return offset
}

private extension Array where Element == UInt8 {
    /// Whether the bytes hold `\r\n\r\n`, the end of a request head.
    var containsHeadEnd: Bool {
        let end = Array("\r\n\r\n".utf8)
        guard count >= end.count else { return false }
        return (0...(count - end.count)).contains { self[$0..<($0 + end.count)].elementsEqual(end) }
    }
}
