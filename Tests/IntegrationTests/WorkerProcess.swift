// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation

/// Runs `auth-store-worker`, the package's worker executable, as a separate OS process.
///
/// SwiftPM builds every executable of the package into the same products folder as the test
/// bundle (`.build/debug`), and the integration test target depends on the worker target, so it
/// is built first. It is looked for next to the loaded `.xctest` bundle, next to the running
/// executable, then in `.build/debug` above this source file.
enum WorkerProcess {
    static let name = "auth-store-worker"

    static func executableURL(file: String = #filePath) throws -> URL {
        try PackageExecutable.url(named: name, file: file)
    }

    /// Runs the worker to completion; returns its exit status and standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await run(executableURL(), arguments)
    }

    /// Runs an executable to completion with `input` on its standard input; returns its exit
    /// status and its standard output (with standard error after it when `errors` is set).
    static func run(_ executable: URL, _ arguments: [String], input: String = "", errors: Bool = false) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = pipe
        if errors { process.standardError = pipe }
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let reader = pipe.fileHandleForReading
        let output = await offPool { reader.readDataToEndOfFile() }
        for await _ in exited {}
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
