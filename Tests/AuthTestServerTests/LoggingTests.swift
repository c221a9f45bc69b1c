// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import InMemoryLogging
import Logging
import Testing

@Suite struct LoggingTests {
    @Test func noPasswordOrTokenReachesTheLogEvenAtTraceLevel() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let captured = handler
        let logger = Logger(label: "test-server", factory: { _ in captured })
        let password = "pw-\(UUID().uuidString)"

        let secrets: [String] = try await withServer(.init(logger: logger)) { _, http in
            let login = try await http.signUp("alice", password: password)
            let access = try login.string("access_token")
            let firstRefresh = try login.string("refresh_token")
            _ = try await http.postJSON("/auth/login", ["username": "alice", "password": password + "x"])
            _ = try await http.get("/me", bearer: access)
            let renewed = try await http.postForm("/auth/refresh", RefreshTests.form(firstRefresh))
            _ = try await http.postForm("/auth/refresh", RefreshTests.form(firstRefresh))
            let guest = try await http.send("POST", "/auth/guest", headers: [("X-Device-ID", "d1")])
            _ = try await http.send("POST", "/auth/logout", headers: [("Authorization", "Bearer \(access)")])
            return [password, access, firstRefresh, try renewed.string("refresh_token"), try guest.string("access_token")]
        }

        let lines = captured.entries.map { "\($0.message) \($0.metadata)" }
        #expect(lines.contains { $0.contains("refresh refused") })
        for line in lines {
            for secret in secrets {
                #expect(!line.contains(secret), "a log line contains a secret")
            }
        }
    }

    @Test func defaultLoggerLevelIsWarning() {
        #expect(AuthTestServer.Configuration().logger.logLevel == .warning)
    }
}
