// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that is free now and lies below the kernel's ephemeral range (Linux
/// gives ports from 32768 up to every `port: 0` listener and every outgoing connection).
///
/// A server a test starts on a port it picked first (a PostgreSQL cluster, PgBouncer) or a test
/// that checks that nothing listens on a stopped server's port takes one of these: a port taken
/// from the ephemeral range (bind port 0, close) can be given to another test's server or to an
/// outgoing connection before the server binds it, or while a cluster is paused for an outage.
/// Ports below the range are taken only by tests that pick them this way, at random, so two of
/// them pick the same one only by a rare chance (see ``PostgresTestCluster/start()``).
/// - Throws: `ClusterError` when none of 100 random ports between 20000 and 32767 is free.
public func portBelowEphemeralRange() throws -> Int {
    for _ in 0..<100 {
        let port = Int.random(in: 20_000..<32_768)
        if canBind(port) { return port }
    }
    throw ClusterError("no free port between 20000 and 32767")
}

/// Whether a TCP socket can bind 127.0.0.1:`port` now.
private func canBind(_ port: Int) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
}
