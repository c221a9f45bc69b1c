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

/// A port on 127.0.0.1 where nothing listens, held for the duration of `body`: a socket bound
/// to it (without SO_REUSEADDR) and never listening, so that a connection to it is refused and no
/// server started meanwhile (by another test, on port 0) can take it. A port bound by a server
/// and then closed could be taken again at once.
func withClosedPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EMFILE) }
    defer { Glibc.close(socket) }
    return try await body(try bindToLoopback(socket))
}

/// Binds `socket` to 127.0.0.1 on a port the system chooses, and returns the port.
func bindToLoopback(_ socket: Int32) throws -> Int {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}
