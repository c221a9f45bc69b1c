// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PgBouncer in front of a ``PostgresTestCluster``, for tests of what a client does
/// through a connection pooler: a free port on 127.0.0.1, the cluster's `postgres` database under
/// the same name, trust authentication for the user `authkit`, the pool mode of the caller's
/// choice; stopped and removed at the end. As root it runs as the unprivileged `postgres` user
/// (PgBouncer refuses to run as root). It needs Debian's `pgbouncer` package, which
/// `scripts/test` installs when it is missing.
///
/// ```swift
/// try await PostgresTestCluster.withCluster { cluster in
///     try await PgBouncer.withRunning(inFrontOf: cluster, mode: .transaction) { bouncer in
///         let store = try await PostgresCredentialStore.open(configuration: .init(host: "127.0.0.1", port: bouncer.port, username: "authkit", password: nil, database: "postgres", tls: .disable))
///         await store.close()
///     }
/// }
/// ```
public final class PgBouncer: Sendable {
    /// How PgBouncer lends its server connections (`pool_mode`).
    public enum PoolMode: String, Sendable, CaseIterable {
        /// A server connection per client connection, for as long as the client stays connected:
        /// sessions (`LISTEN`, session settings, advisory locks) work as on the server itself.
        case session
        /// A server connection per transaction, handed back to the pool when it ends: whatever a
        /// session keeps beyond a transaction (`LISTEN`, `SET`, session advisory locks, named
        /// prepared statements in PgBouncer before 1.21) is lost or lands on another client.
        case transaction
    }

    /// The folder that holds the configuration, the log and the pid file.
    public let directory: URL
    /// The port PgBouncer listens on, on 127.0.0.1.
    public let port: Int
    /// The pool mode it runs in.
    public let mode: PoolMode

    /// `postgres://authkit@127.0.0.1:<port>/postgres`.
    public var url: String { "postgres://authkit@127.0.0.1:\(port)/postgres" }

    /// PgBouncer's log (`pgbouncer.log`), for a failing test's message.
    public var log: String { (try? String(contentsOf: directory.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? "" }

    private init(directory: URL, port: Int, mode: PoolMode) {
        self.directory = directory
        self.port = port
        self.mode = mode
    }

    /// Starts PgBouncer in front of `cluster` and waits until it accepts connections.
    /// - Parameters:
    ///   - cluster: The server it pools connections to.
    ///   - mode: `pool_mode`.
    ///   - poolSize: `default_pool_size`, the most server connections it opens (in session mode,
    ///     a client connection beyond it waits for one to close).
    /// - Throws: `ClusterError` when PgBouncer is not installed or does not start.
    public static func start(inFrontOf cluster: PostgresTestCluster, mode: PoolMode, poolSize: Int = 20) async throws -> PgBouncer {
        let executable = "/usr/sbin/pgbouncer"
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ClusterError("PgBouncer is not installed (no \(executable)): run scripts/test, which installs Debian's pgbouncer package")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authkit-pgbouncer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bouncer = PgBouncer(directory: directory, port: try portBelowEphemeralRange(), mode: mode)
        let users = directory.appendingPathComponent("users.txt")
        try "\"authkit\" \"\"\n".write(to: users, atomically: false, encoding: .utf8)
        let configuration = directory.appendingPathComponent("pgbouncer.ini")
        try """
        [databases]
        postgres = host=127.0.0.1 port=\(cluster.port) dbname=postgres

        [pgbouncer]
        listen_addr = 127.0.0.1
        listen_port = \(bouncer.port)
        unix_socket_dir =
        auth_type = trust
        auth_file = \(users.path)
        pool_mode = \(mode.rawValue)
        max_client_conn = 500
        default_pool_size = \(poolSize)
        ignore_startup_parameters = extra_float_digits,application_name
        logfile = \(directory.appendingPathComponent("pgbouncer.log").path)
        pidfile = \(bouncer.pidPath)

        """.write(to: configuration, atomically: false, encoding: .utf8)
        if getuid() == 0 { try await PostgresTestCluster.run("/bin/chown", ["-R", "postgres:postgres", directory.path]) }
        do {
            // `-d`: in the background once it listens; spawned without this process's descriptors.
            try await PostgresTestCluster.run(executable, ["-d", configuration.path], asPostgres: true)
            try await bouncer.waitUntilListening(within: .seconds(20))
        } catch {
            let log = bouncer.log
            await bouncer.stop()
            throw ClusterError("PgBouncer did not start: \(error) \(log.suffix(800))")
        }
        return bouncer
    }

    /// Stops PgBouncer (SIGTERM, then SIGKILL if it is still running after 5 seconds; its
    /// clients' connections close) and removes its folder.
    public func stop() async {
        if let pid = pid {
            kill(pid, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(5)
            while kill(pid, 0) == 0, ContinuousClock.now < deadline {
                guard (try? await Task.sleep(for: .milliseconds(20))) != nil else { break }
            }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with PgBouncer started in front of `cluster` (see
    /// ``start(inFrontOf:mode:poolSize:)``), stopping it afterwards, also when `body` throws.
    public static func withRunning<T>(isolation: isolated (any Actor)? = #isolation, inFrontOf cluster: PostgresTestCluster, mode: PoolMode, poolSize: Int = 20, _ body: (PgBouncer) async throws -> T) async throws -> T {
        let bouncer = try await start(inFrontOf: cluster, mode: mode, poolSize: poolSize)
        do {
            let result = try await body(bouncer)
            await bouncer.stop()
            return result
        } catch {
            await bouncer.stop()
            throw error
        }
    }

    private var pidPath: String { directory.appendingPathComponent("pgbouncer.pid").path }

    /// The daemon's process id, from its pid file.
    private var pid: pid_t? {
        (try? String(contentsOfFile: pidPath, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Polls the port until a connection is accepted.
    private func waitUntilListening(within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if Self.accepts(port: port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ClusterError("nothing accepts connections on 127.0.0.1:\(port) after \(limit)")
    }

    private static func accepts(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, length) } } == 0
    }
}
