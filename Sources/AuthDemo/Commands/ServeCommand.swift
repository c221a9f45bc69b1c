// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthTestServer
import Foundation

/// `auth-demo serve`: runs AuthTestServer until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run AuthTestServer until interrupted.")

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Access-token lifetime in seconds.")
    var accessLifetime = 300

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535 (0 picks a free one), not \(port)") }
        guard accessLifetime >= 1 else { throw ValidationError("--access-lifetime must be at least 1 second, not \(accessLifetime)") }
    }

    func run() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.port = port
        configuration.lifetimes.access = accessLifetime
        try await AuthTestServer.withRunning(configuration: configuration) { server in
            FileHandle.standardOutput.write(Data("AuthTestServer listening on \(server.baseURL.absoluteString) (Ctrl-C to stop)\n".utf8))
            while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}
