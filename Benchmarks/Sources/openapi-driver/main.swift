// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The OpenAPI suite's calls, `count` times, for callgrind (exact instruction counts whatever the
// machine's load): the instructions per call are the difference between two counts divided by
// the difference between them, and AuthOpenAPIMiddleware's cost is its mode's figure minus the
// header-only one's.
//
//   openapi-driver plain-get|auth-get|standard-get|plain-post|auth-post|standard-post <count>
//       getMe() or register() with a 1 KiB body, through the header-only ClientMiddleware, or
//       through AuthOpenAPIMiddleware with authentication alone or the standard pipeline; first
//       20 calls of every mode, so that each runs with the same types instantiated
//
//   Benchmarks/scripts/callgrind-openapi   runs it under callgrind (N1=200 N2=1200)
import AuthTestServerAPI
import Foundation
import OpenAPISupport

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, let count = arguments.dropFirst().first.flatMap({ Int($0) }) else {
    FileHandle.standardError.write(Data("usage: openapi-driver <mode> <count>\n".utf8))
    exit(2)
}

@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

// A synchronous main that waits for the work: with an async main, the main thread parks in
// libdispatch's signal wait, which valgrind 3.19 crashes on.
let finished = DispatchSemaphore(value: 0)
Task.detached { [mode, count] in
    do {
        try await run(mode: mode, count: count)
    } catch {
        FileHandle.standardError.write(Data("openapi-driver \(mode): \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
exit(0)

nonisolated func run(mode: String, count: Int) async throws {
    let auth = try await OpenAPIClients(standard: false)
    let standard = try await OpenAPIClients(standard: true)
    let body = OpenAPIClients.kibibyteCredentials
    for clients in [auth, standard] {
        for _ in 0..<20 {
            consume(try await clients.plain.getMe().ok.body.json)
            consume(try await clients.measured.getMe().ok.body.json)
            consume(try await clients.plain.register(body: .json(body)).created.body.json)
            consume(try await clients.measured.register(body: .json(body)).created.body.json)
        }
    }
    switch mode {
    case "plain-get": for _ in 0..<count { consume(try await auth.plain.getMe().ok.body.json) }
    case "auth-get": for _ in 0..<count { consume(try await auth.measured.getMe().ok.body.json) }
    case "standard-get": for _ in 0..<count { consume(try await standard.measured.getMe().ok.body.json) }
    case "plain-post": for _ in 0..<count { consume(try await auth.plain.register(body: .json(body)).created.body.json) }
    case "auth-post": for _ in 0..<count { consume(try await auth.measured.register(body: .json(body)).created.body.json) }
    case "standard-post": for _ in 0..<count { consume(try await standard.measured.register(body: .json(body)).created.body.json) }
    default: fatalError("unknown mode \(mode)")
    }
}

