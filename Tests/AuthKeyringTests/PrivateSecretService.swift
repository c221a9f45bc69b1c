#if os(Linux)
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus session bus and a GNOME Keyring of the test's own: a `dbus-daemon` listening in a
/// temporary folder, with no service activation (so nothing else starts on it), and, unless
/// asked for none, a `gnome-keyring-daemon` whose login keyring is created and unlocked with a
/// test password given on its standard input. Nothing of the user's session is touched;
/// ``stop()`` ends both processes and removes the folder.
final class PrivateSecretService: @unchecked Sendable {
    // @unchecked: a test uses its service from one task at a time.
    let directory: String
    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS` or `SecretServiceKeyring.Options`.
    let busAddress: String
    private let bus: Process
    private var keyring: Process?

    /// Whether the daemons are installed (Debian's `dbus` and `gnome-keyring`).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-keyring-daemon")
    }

    /// The tests' trait condition: they run where GNOME Keyring is installed, and always on CI
    /// (`CI` set), where a missing one makes them fail instead of being skipped.
    static var shouldRun: Bool { isInstalled || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Why the tests are disabled when they are.
    static let disabledNote: Comment = "needs Debian's dbus and gnome-keyring: run scripts/test, which installs them"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the bus and, when `withKeyring`, the keyring daemon, and waits until the login
    /// keyring answers.
    init(withKeyring: Bool = true) async throws {
        guard Self.isInstalled else {
            throw Failure(description: "dbus-daemon or gnome-keyring-daemon is missing: run scripts/test, which installs Debian's dbus and gnome-keyring")
        }
        // Short: a Unix socket path has room for about 100 bytes.
        directory = "/tmp/authkit-keyring-\(UUID().uuidString.prefix(8))"
        for folder in ["", "/home", "/data", "/run"] {
            try FileManager.default.createDirectory(atPath: directory + folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        busAddress = "unix:path=\(directory)/bus"
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
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        do {
            try await Self.waitFor("the bus socket") { FileManager.default.fileExists(atPath: "\(self.directory)/bus") }
            if withKeyring { try await startKeyring() }
        } catch {
            stop()
            throw error
        }
    }

    /// The test password of the login keyring.
    static let password = "authkit-test-password"

    /// The environment of a process on this bus, with a home of its own.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["HOME"] = directory + "/home"
        environment["XDG_DATA_HOME"] = directory + "/data"
        environment["XDG_RUNTIME_DIR"] = directory + "/run"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        return environment
    }

    /// Locks the login keyring, as the desktop does on a screen lock.
    func lock() {
        _ = send(["/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login"])
    }

    /// Ends the keyring daemon and starts it again, which unlocks the login keyring with the
    /// test password (read from its file again: what was stored before is still there).
    func restartKeyring() async throws {
        stopKeyring()
        try await startKeyring()
    }

    /// Ends the keyring daemon: the bus stays, with no Secret Service on it.
    func stopKeyring() {
        if let keyring, keyring.isRunning {
            keyring.terminate()
            keyring.waitUntilExit()
        }
        keyring = nil
    }

    /// Starts `gnome-keyring-daemon`, feeds it the password, waits for the login keyring.
    private func startKeyring() async throws {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon")
        daemon.arguments = ["--foreground", "--unlock", "--components=secrets"]
        daemon.environment = environment
        let input = Pipe()
        daemon.standardInput = input
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        keyring = daemon
        try input.fileHandleForWriting.write(contentsOf: Data(Self.password.utf8))
        try input.fileHandleForWriting.close()
        try await Self.waitFor("the login keyring") {
            self.send(["/org/freedesktop/secrets", "org.freedesktop.Secret.Service.ReadAlias", "string:default"]).contains("collection/login")
        }
    }

    /// Calls the Secret Service with `dbus-send` (an independent client) and returns its output.
    @discardableResult
    func send(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        process.arguments = ["--session", "--print-reply", "--reply-timeout=5000", "--dest=org.freedesktop.secrets"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Ends the daemons and removes the folder.
    func stop() {
        for process in [keyring, bus].compactMap({ $0 }) where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` with a private Secret Service, stopped afterwards whatever happens.
    static func with<T>(withKeyring: Bool = true, _ body: (PrivateSecretService) async throws -> T) async throws -> T {
        let service = try await PrivateSecretService(withKeyring: withKeyring)
        defer { service.stop() }
        return try await body(service)
    }

    /// Polls `condition` every 50 ms, for 30 seconds at most.
    private static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<600 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "\(what) did not come up within 30 seconds")
    }
}
#endif
