// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1, for sending a loopback listener what a browser, a local
/// program or a rebinding page would send, byte for byte, and seeing whether the listener
/// closed it. Its blocking calls run on a thread of their own, off the concurrency pool.
final class LoopbackClient: @unchecked Sendable {
    private let socket: Int32

    /// Connects to `port`, then sends `text` at once from the same thread (no wait for the
    /// concurrency pool in between, which a listener's short connection timeout could outlast on
    /// a loaded machine); a connection the listener refuses at once still connects.
    init(port: Int, sending text: String? = nil) async throws {
        let socket = try await offPool { () throws -> Int32 in
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw POSIXError(.EMFILE) }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                Glibc.close(socket)
                throw POSIXError(.ECONNREFUSED)
            }
            if let text { Self.send(text, on: socket) }
            return socket
        }
        self.socket = socket
    }

    deinit { Glibc.close(socket) }

    /// Sends `text`.
    func send(_ text: String) async {
        let socket = self.socket
        await offPool { Self.send(text, on: socket) }
    }

    private static func send(_ text: String, on socket: Int32) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Connects to `port`, sends a `GET` of `target` with `host` as its `Host` field (none when
    /// nil) as it connects, and reads the answer up to the connection's end.
    static func get(port: Int, _ target: String, host: String?, version: String = "HTTP/1.1") async throws -> String {
        try await LoopbackClient(port: port, sending: request(target, host: host, version: version)).readToEnd(within: .seconds(30)).text
    }

    /// Sends a `GET` on this connection, and reads the answer up to the connection's end.
    func get(_ target: String, host: String?, version: String = "HTTP/1.1") async -> String {
        await send(Self.request(target, host: host, version: version))
        return await readToEnd(within: .seconds(30)).text
    }

    private static func request(_ target: String, host: String?, version: String) -> String {
        "GET \(target) \(version)\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "User-Agent: test\r\n\r\n"
    }

    /// Reads until the listener closes the connection or `within` passes: what came, and
    /// whether it was closed.
    func readToEnd(within: Duration) async -> (text: String, closed: Bool) {
        let socket = self.socket
        return await offPool {
            let end = ContinuousClock.now + within
            var data = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now < end {
                var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let count = read(socket, &buffer, buffer.count)
                if count > 0 { data += buffer[0..<count]; continue }
                if count == 0 { return (String(decoding: data, as: UTF8.self), true) }
                let error = errno
                if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { continue }
                return (String(decoding: data, as: UTF8.self), true)  // reset: closed too
            }
            return (String(decoding: data, as: UTF8.self), false)
        }
    }

    /// How many of `clients` the listener still holds open once `within` passed (fewer as soon
    /// as all are closed).
    static func countOpen(_ clients: [LoopbackClient], within: Duration) async -> Int {
        let sockets = clients.map(\.socket)
        return await offPool {
            let end = ContinuousClock.now + within
            var open = Set(sockets)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !open.isEmpty {
                for socket in open {
                    let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { open.remove(socket) }
                }
                guard ContinuousClock.now < end, !open.isEmpty else { break }
                usleep(50_000)
            }
            return open.count
        }
    }
}
