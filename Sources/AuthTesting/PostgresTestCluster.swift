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

/// A private PostgreSQL cluster for one test: `initdb` into a temporary folder, a free port on
/// 127.0.0.1 and ::1 (below the ephemeral range: ``portBelowEphemeralRange()``), a Unix socket in
/// ``directory``, trust authentication for the user `authkit` (a superuser), stopped and removed
/// at the end. As root it runs as the unprivileged `postgres` user, as PostgreSQL requires. It
/// needs Debian's `postgresql` package, which `scripts/test` installs when it is missing.
///
/// ```swift
/// try await PostgresTestCluster.withCluster { cluster in
///     let store = try await PostgresCredentialStore.open(configuration: .init(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable))
///     await store.close()
/// }
/// ```
///
/// Faults on demand, for tests of what a client does when the database goes away: ``pause()`` and
/// ``resume()`` (an outage), ``restart()``, ``freeze()`` and ``thaw()`` (a network cut: the server
/// stops answering without closing anything), ``setReadOnly(_:)`` (a failover to a standby),
/// ``terminateBackends()``; and roles with a password or fewer privileges (``createRole(_:password:)``,
/// ``grantReadOnly(to:schema:)``, ``requirePassword(for:)``), TLS (``enableTLS()``).
public final class PostgresTestCluster: @unchecked Sendable {
    /// The folder that holds the cluster's data, socket and log.
    public let directory: URL
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int

    /// `postgres://authkit@127.0.0.1:<port>/postgres`.
    public var url: String { "postgres://authkit@127.0.0.1:\(port)/postgres" }

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
    }

    /// Starts a cluster, on a port from ``portBelowEphemeralRange()``; when something else binds
    /// that port before the server does, on another one (three tries).
    public static func start() async throws -> PostgresTestCluster {
        let bin = try binDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authkit-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try await run("/bin/chown", ["postgres:postgres", directory.path]) }
        let data = directory.appendingPathComponent("data").path
        try await run(bin + "/initdb", ["-D", data, "-U", "authkit", "-A", "trust", "--no-sync", "-E", "UTF8"], asPostgres: true)
        var attempt = 1
        while true {
            let cluster = PostgresTestCluster(directory: directory, port: try portBelowEphemeralRange())
            do {
                try await cluster.resume()
                return cluster
            } catch where attempt < 3 && cluster.portWasTaken {
                attempt += 1
                try? FileManager.default.removeItem(at: cluster.logFile)
            }
        }
    }

    /// The server's log (`pg_ctl -l`).
    private var logFile: URL { directory.appendingPathComponent("log") }

    /// Whether the server's log says it could not listen because its port was in use.
    private var portWasTaken: Bool {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").contains("Address already in use")
    }

    /// Stops the server (`fast`: open sessions are ended) and removes its folder.
    public func stop() async {
        guard let bin = try? Self.binDirectory() else { return }
        try? await Self.run(bin + "/pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server for a while, as an outage would, keeping its data.
    public func pause() async throws {
        try await Self.run(try Self.binDirectory() + "/pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], asPostgres: true)
    }

    /// Starts the server (again, after ``pause()``), on the cluster's port; `fsync` off, as a
    /// test's data need not survive a machine crash.
    public func resume() async throws {
        try await Self.run(try Self.binDirectory() + "/pg_ctl", ["-D", dataPath, "-o", serverOptions, "-l", logFile.path, "-w", "-t", "60", "start"], asPostgres: true)
    }

    /// Restarts the server (`pg_ctl restart -m fast`: open sessions are ended, and with them their
    /// advisory locks), keeping its data and port.
    public func restart() async throws {
        try await Self.run(try Self.binDirectory() + "/pg_ctl", ["-D", dataPath, "-o", serverOptions, "-l", logFile.path, "-m", "fast", "-w", "-t", "60", "restart"], asPostgres: true)
    }

    /// The server's options: the port, the socket directory, both loopback addresses (the server
    /// goes on without ::1 on a machine that has none), `fsync` off.
    private var serverOptions: String {
        "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1,::1 -c fsync=off -c full_page_writes=off -c max_connections=200"
    }

    private var dataPath: String { directory.appendingPathComponent("data").path }

    /// Runs `body` with a fresh cluster, stopping it afterwards.
    public static func withCluster<T>(isolation: isolated (any Actor)? = #isolation, _ body: (PostgresTestCluster) async throws -> T) async throws -> T {
        let cluster = try await start()
        do {
            let result = try await body(cluster)
            await cluster.stop()
            return result
        } catch {
            await cluster.stop()
            throw error
        }
    }

    // MARK: Faults

    /// Stops every process of the server (SIGSTOP): connections stay open and new ones are
    /// accepted by the kernel, but nothing answers, as when the network is cut. ``thaw()`` ends it.
    public func freeze() throws {
        for pid in try serverProcesses() { kill(pid, SIGSTOP) }
    }

    /// Lets the processes ``freeze()`` stopped go on (SIGCONT).
    public func thaw() throws {
        for pid in try serverProcesses().reversed() { kill(pid, SIGCONT) }
    }

    /// Switches the server to refusing writes, as a failover to a hot standby does: new
    /// transactions are read-only (`default_transaction_read_only`, SQLSTATE 25006 on a write),
    /// and with `on` every other session is ended (``terminateBackends()``). `false` switches it
    /// back.
    public func setReadOnly(_ on: Bool) async throws {
        try await execute(["SET default_transaction_read_only = off", "ALTER SYSTEM SET default_transaction_read_only = \(on ? "on" : "off")", "SELECT pg_reload_conf()"])
        if on { try await terminateBackends() }
    }

    /// Ends every client session but the caller's (`pg_terminate_backend`): their connections
    /// close, and their transactions and advisory locks end with them.
    public func terminateBackends() async throws {
        try await execute(["SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"])
    }

    /// Runs SQL statements as the superuser `authkit` with `psql`, each on its own (none in a
    /// transaction block) in one session, stopping at the first error.
    public func execute(_ statements: [String], database: String = "postgres") async throws {
        let arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(port)", "-U", "authkit", "-d", database] + statements.flatMap { ["-c", $0] }
        try await Self.run(try Self.binDirectory() + "/psql", arguments)
    }

    /// The postmaster (the first line of `data/postmaster.pid`) and every process descending from
    /// it, parents first.
    private func serverProcesses() throws -> [pid_t] {
        let pidFile = try String(contentsOfFile: dataPath + "/postmaster.pid", encoding: .utf8)
        guard let first = pidFile.split(separator: "\n").first, let postmaster = pid_t(first.trimmingCharacters(in: .whitespaces)) else {
            throw ClusterError("the server is not running (no pid in postmaster.pid)")
        }
        var children: [pid_t: [pid_t]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { continue }
            // `pid (comm) state ppid …`; comm may hold spaces and parentheses: read after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var all = [postmaster]
        var index = 0
        while index < all.count {
            all += children[all[index]] ?? []
            index += 1
        }
        return all
    }

    // MARK: Roles

    /// Creates a role that may log in (with `password`, once ``requirePassword(for:)`` asks for
    /// one) and has only what every role has: it may connect, and create nothing in `public`.
    public func createRole(_ name: String, password: String? = nil) async throws {
        let passwordClause = password.map { " PASSWORD '\($0.replacingOccurrences(of: "'", with: "''"))'" } ?? ""
        try await execute(["CREATE ROLE \"\(name)\" LOGIN\(passwordClause)"])
    }

    /// Lets `role` read the tables of `schema` (`USAGE` on it, `SELECT` on its tables), and nothing
    /// else: the shape of a read-only role.
    public func grantReadOnly(to role: String, schema: String = "public") async throws {
        try await execute(["GRANT USAGE ON SCHEMA \"\(schema)\" TO \"\(role)\"", "GRANT SELECT ON ALL TABLES IN SCHEMA \"\(schema)\" TO \"\(role)\""])
    }

    /// Makes `role` authenticate with its password (SCRAM-SHA-256) over TCP and the socket: a line
    /// for it before the `trust` lines of `pg_hba.conf`, then a reload.
    public func requirePassword(for role: String) async throws {
        let path = dataPath + "/pg_hba.conf"
        let current = try String(contentsOfFile: path, encoding: .utf8)
        let lines = "local all \(role) scram-sha-256\nhost all \(role) 0.0.0.0/0 scram-sha-256\nhost all \(role) ::/0 scram-sha-256\n"
        try (lines + current).write(toFile: path, atomically: false, encoding: .utf8)
        try await execute(["SELECT pg_reload_conf()"])
    }

    // MARK: TLS

    /// Turns TLS on, with a certificate for `localhost`, 127.0.0.1 and ::1 issued by a certificate
    /// authority of this cluster's own (made with the `openssl` command), and returns the
    /// authority's certificate (PEM), for a client's `sslrootcert`. Plain connections still work.
    @discardableResult
    public func enableTLS() async throws -> URL {
        let folder = directory.appendingPathComponent("tls")
        let authority = try await Self.makeCertificateAuthority(in: folder)
        let key = folder.appendingPathComponent("server.key").path
        let request = folder.appendingPathComponent("server.csr").path
        let certificate = folder.appendingPathComponent("server.pem").path
        let extensions = folder.appendingPathComponent("server.ext").path
        try "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n".write(toFile: extensions, atomically: false, encoding: .utf8)
        try await Self.run("/usr/bin/openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=localhost"])
        try await Self.run("/usr/bin/openssl", ["x509", "-req", "-in", request, "-CA", authority.path, "-CAkey", folder.appendingPathComponent("ca.key").path, "-CAcreateserial", "-out", certificate, "-days", "2", "-extfile", extensions])
        if getuid() == 0 { try await Self.run("/bin/chown", ["-R", "postgres:postgres", folder.path]) }
        chmod(key, 0o600)
        try await execute(["ALTER SYSTEM SET ssl_cert_file = '\(certificate)'", "ALTER SYSTEM SET ssl_key_file = '\(key)'", "ALTER SYSTEM SET ssl = on", "SELECT pg_reload_conf()"])
        return authority
    }

    /// Makes a self-signed certificate authority in `folder` (`ca.pem`, `ca.key`) and returns its
    /// certificate; another one than a cluster's, to show that a server is refused when its
    /// certificate was not issued by the authority a client trusts.
    public static func makeCertificateAuthority(in folder: URL) async throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("ca.pem")
        try await run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder.appendingPathComponent("ca.key").path, "-out", certificate.path, "-days", "2", "-subj", "/CN=AuthKit test CA \(UUID().uuidString)"])
        return certificate
    }

    static func binDirectory() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw ClusterError("PostgreSQL is not installed (no \(root)/<version>/bin): run scripts/test, which installs Debian's postgresql package")
        }
        return "\(root)/\(newest)/bin"
    }

    /// Runs a program to its end (`posix_spawn` and `waitpid`: Foundation's `Process` waits for
    /// descriptors that the server `pg_ctl` starts keeps open), with no descriptor of this process
    /// but standard input, output and error, waiting on a thread of its own (``offPool(_:)``):
    /// `initdb` and `pg_ctl -w` take seconds.
    ///
    /// The child closes every other descriptor before it runs the program
    /// (`posix_spawn_file_actions_addclosefrom_np`): SwiftNIO opens sockets without `CLOEXEC`, and
    /// a child that kept another test's listening socket (for the seconds of `initdb`, or the
    /// server's lifetime) would keep accepting connections on a port that test had stopped.
    static func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) async throws {
        try await offPool { try runBlocking(executable, arguments, asPostgres: asPostgres) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], asPostgres: Bool) throws {
        let command = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("authkit-pg-output-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard let closeFrom = closeFromAction(), closeFrom(&actions, 3) == 0 else {
            throw ClusterError("this C library cannot close descriptors in a spawned program (posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later)")
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw ClusterError("could not start \(command[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exited == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw ClusterError("\((executable as NSString).lastPathComponent) \(arguments.first ?? "") exited with \(exited): \(text.suffix(800))")
        }
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's `Glibc`
/// module does not declare (its header declares it for `_GNU_SOURCE` only); nil where the C
/// library lacks it.
private func closeFromAction() -> (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt)? {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt).self)
}

/// Why a cluster could not be started or stopped.
public struct ClusterError: Error, CustomStringConvertible {
    /// What failed, with the end of the program's output.
    public let description: String
    init(_ description: String) { self.description = description }
}
