// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthCore
import AuthHTTPClient
import AuthSQLiteStore
import AuthTestServer
import Foundation

/// The default command: the whole story against an in-process server and a SQLite store in a
/// temporary folder.
struct StoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "story", abstract: "Run the whole story (the default).")

    @Option(help: "Concurrent requests per user in the burst across the token expiry.")
    var burst = 200

    func validate() throws {
        guard (1...10_000).contains(burst) else { throw ValidationError("--burst must be between 1 and 10000, not \(burst)") }
    }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auth-demo-\(UUID().uuidString)")
        // Only its owner may read it: the story keeps tokens in it.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        Self.removeOnInterrupt(folder)
        defer {
            Self.restoreSignals()
            try? FileManager.default.removeItem(at: folder)
        }
        let report = StoryReport()
        try await AuthTestServer.withRunning { server in
            print("AuthTestServer listening on \(server.baseURL.absoluteString)")
            print("credential store: \(folder.appendingPathComponent("credentials.sqlite").path)\n")
            try await HTTPClientTransport.withTransport { transport in
                let container = AuthContainer()
                container.useHTTPClient(transport)
                try await container.useSQLiteStore(at: folder.appendingPathComponent("credentials.sqlite").path)
                let story = Story(server: server, transport: transport, container: container, report: report, folder: folder, burst: burst)
                try await story.run()
            }
            report.renewals = server.counters.renewals
            report.requests = server.counters.requestsByPath.values.reduce(0, +)
        }
        guard report.finish() else { throw ExitCode.failure }
    }

    /// On Ctrl-C (SIGINT) or SIGTERM: removes the story's temporary folder, says so, and exits
    /// with 130 (143 for SIGTERM), as a shell expects of an interrupted command.
    ///
    /// The handler only writes the signal's number to a pipe (what a signal handler may do);
    /// a thread waiting on the pipe does the rest. This works whichever thread the signal lands
    /// on, which a dispatch signal source on Linux does not promise.
    static func removeOnInterrupt(_ folder: URL) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        interruptPipe = ends[1]
        let reader = ends[0]
        Thread {
            var number: UInt8 = 0
            guard read(reader, &number, 1) == 1 else { return }
            // The story goes on writing until the exit: a file SQLite creates while the folder
            // is being removed leaves it behind, so remove until it is gone.
            for _ in 0..<20 where FileManager.default.fileExists(atPath: folder.path) {
                try? FileManager.default.removeItem(at: folder)
            }
            FileHandle.standardError.write(Data("\nauth-demo: interrupted; removed the story's temporary store \(folder.path)\n".utf8))
            Foundation.exit(128 + Int32(number))
        }.start()
        signal(SIGINT, writeSignalToPipe)
        signal(SIGTERM, writeSignalToPipe)
    }

    /// The default dispositions again, once the story is over.
    static func restoreSignals() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// The write end of the story's interrupt pipe; set once before the handler is installed.
nonisolated(unsafe) private var interruptPipe: Int32 = -1

/// The signal handler: writes the signal's number to the interrupt pipe, nothing else.
private func writeSignalToPipe(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(interruptPipe, &byte, 1)
}
