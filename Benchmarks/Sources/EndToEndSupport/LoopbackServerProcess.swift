// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The loopback server in a process of its own: this executable started again with
/// `AUTHKIT_E2E_SERVE` set, which makes ``LoopbackServer/serveIfAsked()`` serve instead of
/// benchmarking.
///
/// In one process the server and the clients share NIO's singleton event loops and the process's
/// CPU time: the server's work and the client's queue behind each other on the same threads, and
/// the suite's CPU ratio counts the server's share on both sides. A server of its own leaves the
/// client's loops and CPU time to the client, as a remote server would. Its own concurrency pool
/// has one thread fewer than the machine has cores: `serveIfAsked()` holds one while it waits.
public final class LoopbackServerProcess: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let process: Process
    /// The server's standard input: closing it stops the server.
    private let input: FileHandle

    /// Starts the server and waits until it listens (at most 10 seconds).
    public init() throws {
        let process = Process()
        guard let executable = Bundle.main.executableURL else { throw LoopbackServerError() }
        process.executableURL = executable
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[LoopbackServer.serveVariable] = "1"
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // A server that neither listens nor exits is stopped, which ends its output.
        let deadline = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: deadline)
        defer { deadline.cancel() }
        guard let port = Self.port(from: output.fileHandleForReading) else {
            process.terminate()
            process.waitUntilExit()
            throw LoopbackServerError()
        }
        self.port = port
        self.process = process
        self.input = input.fileHandleForWriting
    }

    /// The port of the first line of `output` that reads `PORT <n>`; nil when the output ends
    /// before one. (`availableData`, not `read(upToCount:)`, which waits for the whole count.)
    private static func port(from output: FileHandle) -> Int? {
        var pending = Data()
        while true {
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                if line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)), port > 0 { return port }
            }
            let more = output.availableData
            guard !more.isEmpty else { return nil }
            pending += more
        }
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
    ///
    /// It never returns when it serves, so the thread that calls it waits for the end of input.
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
