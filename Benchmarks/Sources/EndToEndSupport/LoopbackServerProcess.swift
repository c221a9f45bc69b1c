import Foundation

/// The loopback server in a process of its own: this executable started again with
/// `AUTHKIT_E2E_SERVE` set, which makes ``LoopbackServer/serveIfAsked()`` serve instead of
/// benchmarking.
///
/// In one process the server and the clients share NIO's singleton event loops and the process's
/// CPU time: the server's work and the client's queue behind each other on the same threads, and
/// the suite's CPU ratio counts the server's share on both sides. A server of its own leaves the
/// client's loops and CPU time to the client, as a remote server would.
public final class LoopbackServerProcess: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let process: Process
    /// The server's standard input: closing it stops the server.
    private let input: FileHandle

    /// Starts the server and waits until it listens.
    public init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[LoopbackServer.serveVariable] = "1"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("PORT "),
              let port = Int(text.dropFirst(5).prefix { $0.isNumber }), port > 0
        else {
            process.terminate()
            throw LoopbackServerError()
        }
        self.port = port
        self.process = process
        self.input = input.fileHandleForWriting
    }

    /// Stops the server and waits for its process to end.
    public func stop() {
        try? input.close()
        process.waitUntilExit()
    }
}

extension LoopbackServer {
    /// The environment variable that makes a process ``serveIfAsked()``.
    static let serveVariable = "AUTHKIT_E2E_SERVE"

    /// When `AUTHKIT_E2E_SERVE` is set: starts the server, writes `PORT <n>` and a newline to
    /// standard output, serves until standard input ends, and exits. Otherwise returns at once.
    public static func serveIfAsked() {
        guard ProcessInfo.processInfo.environment[serveVariable] != nil else { return }
        Task.detached {
            do {
                let (port, _) = try await start()
                FileHandle.standardOutput.write(Data("PORT \(port)\n".utf8))
            } catch {
                FileHandle.standardError.write(Data("loopback server: \(error)\n".utf8))
                exit(1)
            }
        }
        _ = FileHandle.standardInput.readDataToEndOfFile()
        exit(0)
    }
}
