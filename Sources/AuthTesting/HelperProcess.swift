// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A helper executable of the package under test, started as a separate OS process: for tests
/// of what several processes sharing a store do, and of a process killed mid-write.
///
/// Standard output arrives as ``lines``, read on a thread of its own (not the cooperative pool)
/// to the end, so the helper never blocks on a full pipe. ``lines`` has one consumer: each line
/// reaches whichever of the reading methods runs next.
///
/// ```swift
/// let writer = try HelperProcess(named: "sqlite-store-helper", arguments: ["write-loop", path])
/// _ = await writer.waitForLine("ready")
/// writer.killWithSIGKILL()
/// let ending = await writer.waitForExit()   // (.uncaughtSignal, SIGKILL)
/// ```
public final class HelperProcess: @unchecked Sendable {
    // `Process` is not Sendable; after `run()` it is only read (`processIdentifier`).
    private let process: Process
    /// The lines the helper prints on standard output, as they come.
    public let lines: AsyncStream<String>
    private let exit: AsyncStream<(reason: Process.TerminationReason, status: Int32)>
    private let input: FileHandle

    /// Starts `executable` with `arguments`, and `environment` added to this process's.
    public init(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        let input = Pipe()
        process.standardInput = input
        let (exit, exitContinuation) = AsyncStream<(reason: Process.TerminationReason, status: Int32)>.makeStream()
        process.terminationHandler = { finished in
            exitContinuation.yield((finished.terminationReason, finished.terminationStatus))
            exitContinuation.finish()
        }
        let (lines, lineContinuation) = AsyncStream<String>.makeStream()
        let reader = output.fileHandleForReading
        try process.run()
        // A thread of its own, not a Dispatch queue: on Linux the global queues share a few
        // threads and add one only when a monitor sees them all blocked, so a blocking reader
        // there can hold up others (and be held up) for seconds.
        Thread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineContinuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
            lineContinuation.finish()
        }.start()
        self.process = process
        self.lines = lines
        self.exit = exit
        self.input = input.fileHandleForWriting
    }

    /// Writes `line` and a newline to the helper's standard input (ignored once it has exited).
    public func send(_ line: String) {
        signal(SIGPIPE, SIG_IGN)  // a helper that has exited: an error, not the end of this process
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The helper's process identifier.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Starts the package's executable product `name` (found by ``PackageExecutable``).
    /// - Parameters:
    ///   - name: The executable product's name.
    ///   - override: An environment variable that may hold the executable's path.
    ///   - arguments: The helper's arguments.
    ///   - environment: Variables added to this process's environment for the helper.
    ///   - file: A source file of the package (by default the caller's), to find its build folder.
    public convenience init(named name: String, override: String? = nil, arguments: [String], environment: [String: String] = [:], file: String = #filePath) throws {
        try self.init(PackageExecutable.url(named: name, override: override, file: file), arguments: arguments, environment: environment)
    }

    /// Reads lines until one equal to `line`; false when the output ended first.
    public func waitForLine(_ line: String) async -> Bool {
        for await next in lines where next == line { return true }
        return false
    }

    /// Every remaining line of output (returns when the helper closed its output).
    public func remainingLines() async -> [String] {
        var all: [String] = []
        for await line in lines { all.append(line) }
        return all
    }

    /// Kills the helper with SIGKILL: none of its own code runs after that.
    public func killWithSIGKILL() {
        _ = kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the helper to end: how it ended, and its exit status or the signal that ended it.
    public func waitForExit() async -> (reason: Process.TerminationReason, status: Int32)? {
        for await result in exit { return result }
        return nil
    }
}
