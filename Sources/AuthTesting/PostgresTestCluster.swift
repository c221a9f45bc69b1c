public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster for one test: `initdb` into a temporary folder, a free port on
/// 127.0.0.1, trust authentication for the user `authkit`, stopped and removed at the end. As
/// root it runs as the unprivileged `postgres` user, as PostgreSQL requires. It needs Debian's
/// `postgresql` package, which `scripts/test` installs when it is missing.
///
/// ```swift
/// try await PostgresTestCluster.withCluster { cluster in
///     let store = try await PostgresCredentialStore.open(configuration: .init(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable))
///     await store.close()
/// }
/// ```
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

    /// Starts a cluster.
    public static func start() throws -> PostgresTestCluster {
        let bin = try binDirectory()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authkit-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", directory.path]) }
        let data = directory.appendingPathComponent("data").path
        try run(bin + "/initdb", ["-D", data, "-U", "authkit", "-A", "trust", "--no-sync", "-E", "UTF8"], asPostgres: true)
        let cluster = PostgresTestCluster(directory: directory, port: try freePort())
        try cluster.resume()
        return cluster
    }

    /// Stops the server (`fast`: open sessions are ended) and removes its folder.
    public func stop() {
        guard let bin = try? Self.binDirectory() else { return }
        try? Self.run(bin + "/pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"], asPostgres: true)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server for a while, as an outage would, keeping its data.
    public func pause() throws {
        try Self.run(try Self.binDirectory() + "/pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], asPostgres: true)
    }

    /// Starts the server (again, after ``pause()``), on the cluster's port; `fsync` off, as a
    /// test's data need not survive a machine crash.
    public func resume() throws {
        let options = "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200"
        try Self.run(try Self.binDirectory() + "/pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-o", options, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "60", "start"], asPostgres: true)
    }

    /// Runs `body` with a fresh cluster, stopping it afterwards.
    public static func withCluster<T>(isolation: isolated (any Actor)? = #isolation, _ body: (PostgresTestCluster) async throws -> T) async throws -> T {
        let cluster = try start()
        defer { cluster.stop() }
        return try await body(cluster)
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
    /// but standard input, output and error.
    static func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) throws {
        let program = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments : [executable] + arguments
        // Through Python's subprocess, which closes every other descriptor of this process in the
        // child: the server must not keep other tests' listening sockets open for its lifetime.
        let command = ["/usr/bin/python3", "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"] + program
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("authkit-pg-output-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
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

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        guard bound == 0 else { throw ClusterError("no free port") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a cluster could not be started or stopped.
public struct ClusterError: Error, CustomStringConvertible {
    /// What failed, with the end of the program's output.
    public let description: String
    init(_ description: String) { self.description = description }
}
