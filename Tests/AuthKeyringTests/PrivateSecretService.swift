// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if os(Linux)
@testable import AuthKeyring
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus session bus and a GNOME Keyring of the test's own, so that nothing of the user's
/// session is touched: a `dbus-daemon` listening in a temporary folder, with no service
/// activation (nothing else starts on it), and, unless asked for none, a `gnome-keyring-daemon`
/// (secrets component only) whose `login` keyring it creates and unlocks with the test password
/// it reads on its standard input, in a home and runtime folder of its own.
///
/// The recipe, by hand:
///
///     dbus-daemon --config-file=$DIR/bus.conf --nofork     # <listen>unix:path=$DIR/bus</listen>
///     export DBUS_SESSION_BUS_ADDRESS=unix:path=$DIR/bus HOME=$DIR/home \
///            XDG_DATA_HOME=$DIR/data XDG_RUNTIME_DIR=$DIR/run
///     printf %s "$PASSWORD" | gnome-keyring-daemon --foreground --unlock --components=secrets
///
/// Nothing here blocks a thread of Swift's cooperative pool: daemons are started and their end
/// awaited by polling with `Task.sleep`, and D-Bus calls (the package's own client, which is
/// blocking) run on a thread of their own. Every wait has a limit that fails the test with a
/// message naming what did not come up. ``stop()`` ends both daemons and removes the folder;
/// daemons that a crashed test run left behind are ended by the next run (``sweep()``).
actor PrivateSecretService {
    /// The folder of this service: `/tmp/authkit-keyring-<pid of the test process>-<random>`.
    nonisolated let directory: String
    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS` or `SecretServiceKeyring.Options`.
    nonisolated let busAddress: String
    private let bus: ServiceProcess
    private var keyring: ServiceProcess?

    /// The test password of the login keyring.
    static let password = "authkit-test-password"
    /// The collection the daemon creates and unlocks with the password.
    static let loginCollection = "/org/freedesktop/secrets/collection/login"
    private static let prefix = "/tmp/authkit-keyring-"

    /// Whether the daemons are installed (Debian's `dbus` and `gnome-keyring`).
    static var isInstalled: Bool {
        ["/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/bin/gnome-keyring-daemon"].allSatisfy(FileManager.default.isExecutableFile(atPath:))
    }

    /// The tests' trait condition: they run where the daemons are installed, and always on CI
    /// (`CI` set), where missing ones make them fail instead of being skipped.
    static var shouldRun: Bool { isInstalled || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Why the tests are disabled when they are.
    static let disabledNote: Comment = "needs Debian's dbus and gnome-keyring: run scripts/test, which installs them"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the bus and, when `withKeyring`, the keyring daemon, and waits until the login
    /// keyring is the default collection.
    init(withKeyring: Bool = true) async throws {
        guard Self.isInstalled else {
            throw Failure(description: "dbus-daemon, dbus-send or gnome-keyring-daemon is missing: run scripts/test, which installs Debian's dbus and gnome-keyring")
        }
        Self.sweep()
        // Short: a Unix socket path has room for about 100 bytes.
        let directory = Self.prefix + "\(getpid())-\(UUID().uuidString.prefix(8))"
        for folder in ["", "/home", "/data", "/run"] {
            try FileManager.default.createDirectory(atPath: directory + folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let busAddress = "unix:path=\(directory)/bus"
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(busAddress)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try configuration.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        self.directory = directory
        self.busAddress = busAddress
        bus = try ServiceProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile"],
            environment: nil, log: directory + "/bus.log", input: nil
        )
        do {
            try Self.record(bus, in: directory)
            // Until a client connects: the socket's file appears when dbus-daemon binds it, a
            // moment before it listens (a connection in between is refused; seen in CI).
            try await Self.waitFor("the private bus (dbus-daemon)", daemon: bus) {
                (try? await Self.onBus(busAddress) { _, _ in true }) == true
            }
            if withKeyring { try await startKeyring() }
        } catch {
            await stop()
            throw error
        }
    }

    /// Runs `body` with a private Secret Service, stopped afterwards whatever happens.
    static func with<T>(withKeyring: Bool = true, _ body: (PrivateSecretService) async throws -> T) async throws -> T {
        let service = try await PrivateSecretService(withKeyring: withKeyring)
        do {
            let result = try await body(service)
            await service.stop()
            return result
        } catch {
            await service.stop()
            throw error
        }
    }

    /// The environment of a process on this bus, with a home of its own.
    nonisolated var environment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "HOME": directory + "/home",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_RUNTIME_DIR": directory + "/run",
        ]
    }

    /// Locks the login keyring, as the desktop does on a screen lock (no prompt needed to lock).
    func lock() async throws {
        let locked = try await Self.onBus(busAddress) { connection, deadline in
            let reply = try connection.call(
                destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                member: "Lock", body: [.objectPaths([Self.loginCollection])], deadline: deadline
            )
            return reply.body.first?.objectPathList ?? []
        }
        guard locked == [Self.loginCollection] else {
            throw Failure(description: "the keyring daemon did not lock the login keyring (it locked \(locked))")
        }
    }

    /// Ends the keyring daemon: the bus stays, with no Secret Service on it.
    func stopKeyring() async {
        await keyring?.stop()
        keyring = nil
    }

    /// Ends the keyring daemon and starts it again, which unlocks the login keyring with the
    /// test password (read from its file again: what was stored before is still there).
    func restartKeyring() async throws {
        await stopKeyring()
        try await startKeyring()
    }

    /// Ends the daemons and removes the folder.
    func stop() async {
        await keyring?.stop()
        keyring = nil
        await bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `dbus-send` (an independent client) against the Secret Service on this bus and
    /// returns its output.
    func send(_ arguments: [String]) async throws -> String {
        let log = directory + "/dbus-send-\(UUID().uuidString.prefix(8)).log"
        let client = try ServiceProcess(
            "/usr/bin/dbus-send", ["--session", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.secrets"] + arguments,
            environment: environment, log: log, input: nil
        )
        try await Self.waitFor("dbus-send's answer", daemon: nil) { !client.isRunning }
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    /// Starts `gnome-keyring-daemon`, feeds it the password, waits for the login keyring.
    private func startKeyring() async throws {
        let daemon = try ServiceProcess(
            "/usr/bin/gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"],
            environment: environment, log: directory + "/keyring.log", input: Data(Self.password.utf8)
        )
        keyring = daemon
        try Self.record(daemon, in: directory)
        let address = busAddress
        try await Self.waitFor("the login keyring of gnome-keyring-daemon on the private bus", daemon: daemon) {
            let alias = try? await Self.onBus(address) { connection, deadline in
                try connection.call(
                    destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                    member: "ReadAlias", body: [.string("default")], deadline: deadline
                ).body.first?.stringValue
            }
            return alias == Self.loginCollection
        }
    }

    /// Runs `body` with a connection to the bus at `address`, on a thread of its own (the
    /// package's D-Bus client blocks), each call limited to 5 seconds.
    static func onBus<T: Sendable>(_ address: String, _ body: @escaping @Sendable (DBusConnection, ContinuousClock.Instant) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let deadline = ContinuousClock.now + .seconds(5)
                    let connection = try DBusConnection(addresses: DBusAddress.parse(address), deadline: deadline)
                    defer { connection.close() }
                    return try body(connection, deadline)
                })
            }
        }
    }

    /// Polls `condition` every 50 ms for 30 seconds at most; fails early when `daemon` ends.
    private static func waitFor(_ what: String, daemon: ServiceProcess?, _ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if await condition() { return }
            if let daemon, !daemon.isRunning {
                throw Failure(description: "\(what) did not come up: \(daemon.name) exited early (\(daemon.logTail()))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "\(what) did not come up within 30 seconds (\(daemon.map { $0.logTail() } ?? ""))")
    }

    /// Notes a daemon's process identifier in the folder, for ``sweep()``.
    private static func record(_ daemon: ServiceProcess, in directory: String) throws {
        let path = directory + "/daemons"
        let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try (recorded + "\(daemon.processIdentifier)\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Ends the daemons of folders whose test process is gone (a run that crashed or was
    /// killed), and removes those folders. A daemon is only signalled when its command line or
    /// environment names its folder, so a reused process identifier is left alone.
    static func sweep() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("authkit-keyring-") {
            let directory = "/tmp/" + name
            guard let owner = Int32(name.dropFirst("authkit-keyring-".count).prefix { $0 != "-" }),
                  kill(owner, 0) != 0, errno == ESRCH else { continue }
            let pids = ((try? String(contentsOfFile: directory + "/daemons", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
            for pid in pids {
                let named = ["cmdline", "environ"].contains { file in
                    FileManager.default.contents(atPath: "/proc/\(pid)/\(file)").map { String(decoding: $0, as: UTF8.self).contains(directory) } ?? false
                }
                if named { kill(pid, SIGKILL) }
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// A process of the service, its standard output and error in a log file of the folder.
///
/// `@unchecked Sendable`: `Process` is not `Sendable`; after `run()` this class only calls
/// `kill(2)` on its identifier and reads `isRunning` and `processIdentifier`, which Foundation allows from
/// any thread.
final class ServiceProcess: @unchecked Sendable {
    private let process = Process()
    let name: String
    private let log: String

    /// Starts `executable`; `input`, when given, is written to its standard input, which is
    /// then closed.
    init(_ executable: String, _ arguments: [String], environment: [String: String]?, log: String, input: Data?) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        self.log = log
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            merged["DISPLAY"] = nil
            merged["WAYLAND_DISPLAY"] = nil
            process.environment = merged
        }
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw PrivateSecretService.Failure(description: "could not create the daemon's log \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        try? output.close()
        if let input { try stdin.fileHandleForWriting.write(contentsOf: input) }
        try stdin.fileHandleForWriting.close()
    }

    var isRunning: Bool { process.isRunning }
    var processIdentifier: Int32 { process.processIdentifier }

    /// The end of its log, for a failure message.
    func logTail() -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.isEmpty ? "no output" : String(text.suffix(400))
    }

    /// Kills it and waits (10 seconds at most) until Foundation has seen it end.
    ///
    /// SIGKILL, not SIGTERM: the daemons start with the test process's signal mask, in which
    /// SIGTERM is blocked (`SigBlk` in `/proc/PID/status`), so a SIGTERM stays pending and the
    /// daemon runs on. Nothing is lost:
    /// GNOME Keyring writes its keyring file on every change.
    func stop() async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        for _ in 0..<200 where process.isRunning {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
#endif
