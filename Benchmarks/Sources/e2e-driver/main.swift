// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// What Benchmarks/scripts/callgrind-e2e counts: one kind of work, `count` times, so that the
// instructions per request are the difference between two counts divided by the difference
// between them (start-up and warm-up cancel out).
//
//   e2e-driver serve                    the loopback server; prints `PORT <n>`, runs until stdin closes
//   e2e-driver raw|raw-read-timeout|raw-defaults|transport|authkit <count> <port> [warm-all]
//                                       requests one after another to the server at <port>: raw
//                                       AsyncHTTPClient (on HTTPClientTransport.defaultConfiguration,
//                                       the same with a 60 s read timeout, or on its own defaults),
//                                       HTTPClientTransport alone, the AuthKit client; with
//                                       `warm-all`, first 20 requests of each of the five, so
//                                       that every mode runs with the same types instantiated (the
//                                       runtime's metadata caches then hold the same entries, and a
//                                       lookup probes as long in one mode as in another)
//   e2e-driver authkit-unbounded|raw-unbounded <count> <port> [warm-all]
//                                       the AuthKit client over a transport with no bound on a
//                                       stalled body, on an HTTPClient of the caller's whose
//                                       connections keep none either, and raw on that client
//   e2e-driver authkit-sqlite <count> <port> [warm-all]
//                                       the AuthKit client with a SQLite credential store in a
//                                       fresh temporary directory (sign-in writes to it; with
//                                       `warm-all`, the five and then itself)
//   e2e-driver transport-only <count> <port> [warm-all]
//                                       HTTPClientTransport alone with a request made once (its
//                                       conversions, without the pipeline or making a request)
//   e2e-driver raw-data <count> <port> [warm-all]
//                                       raw AsyncHTTPClient with its body made Data
//   e2e-driver raw-delegate <count> <port> [warm-all]
//                                       the same requests through AsyncHTTPClient's delegate API
//                                       (no task of AsyncHTTPClient's own per request), a reference
//   e2e-driver pipeline <count>         the AuthKit client over a transport that answers at once
//                                       with the loopback server's response (the pipeline alone)
//   e2e-driver date <count>             HTTPDate.parse of a Date field value
//   e2e-driver request <count>          an AuthRequest built from a URL, as send(.get, url) does
//   e2e-driver storm|storm-baseline <size> [storms]
//                                       the Pipeline suite's renewal storm: <size> concurrent
//                                       requests through the standard pipeline on one expired
//                                       token renewed once (a 10 ms refresher), or as many no-op
//                                       sends in a task group; <storms> times (1), each printing
//                                       the process CPU time per request and the peak memory
import AuthCore
import AuthHTTPClient
import AuthSQLiteStore
import EndToEndSupport
import Foundation
import Logging

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first else {
    FileHandle.standardError.write(Data("usage: e2e-driver serve | <mode> <count> [port]\n".utf8))
    exit(2)
}
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 0
let port = arguments.dropFirst(2).first.flatMap { Int($0) }
let warmAll = arguments.dropFirst(3).first == "warm-all"

/// The process's CPU time so far, all threads, in nanoseconds.
func processCPUNanoseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

@inline(never) func consume<T>(_ value: T) { withExtendedLifetime(value) {} }

// A synchronous main that waits for the work: with an async main, the main thread parks in
// libdispatch's signal wait, which valgrind 3.19 crashes on.
let finished = DispatchSemaphore(value: 0)
Task.detached { [mode, count, port, warmAll] in
    do {
        try await run(mode: mode, count: count, port: port, warmAll: warmAll)
    } catch {
        FileHandle.standardError.write(Data("e2e-driver \(mode): \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
exit(0)

nonisolated func run(mode: String, count: Int, port: Int?, warmAll: Bool) async throws {
switch mode {
case "serve":
    let (port, task) = try await LoopbackServer.start()
    FileHandle.standardOutput.write(Data("PORT \(port)\n".utf8))
    // Wait for the end of input on a thread of its own, not on one of the few pool threads.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            _ = FileHandle.standardInput.readDataToEndOfFile()
            done.resume()
        }.start()
    }
    task.cancel()
case "raw", "raw-read-timeout", "raw-defaults", "transport", "authkit", "raw-delegate", "authkit-unbounded", "raw-unbounded", "transport-only", "raw-data", "authkit-sqlite":
    guard let port else { fatalError("\(mode) needs a port") }
    let clients = try await EndToEndClients(port: port)
    // authkit-sqlite: the AuthKit client with a SQLite store in a directory of its own, made only
    // in that mode, so that the other modes open no database.
    let sqliteDirectory: URL? = mode == "authkit-sqlite"
        ? FileManager.default.temporaryDirectory.appendingPathComponent("e2e-sqlite-\(UUID().uuidString)", isDirectory: true) : nil
    var authKitSQLite: AccountClient<BearerStrategy>?
    if let sqliteDirectory {
        try FileManager.default.createDirectory(at: sqliteDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = sqliteDirectory.appendingPathComponent("credentials.sqlite").path
        authKitSQLite = try await clients.makeAuthKit { try await $0.useSQLiteStore(at: path) }
    }
    defer { if let sqliteDirectory { try? FileManager.default.removeItem(at: sqliteDirectory) } }
    if warmAll {
        for _ in 0..<20 {
            consume(try await clients.sendRaw())
            consume(try await clients.sendRawWithReadTimeout())
            consume(try await clients.sendRawOnDefaults())
            consume(try await clients.sendTransport())
            consume(try await clients.sendAuthKit())
        }
        // The later modes warm their own paths too; the five do not run them, so that their
        // figures stay comparable with runs before these existed.
        if mode == "raw-delegate" {
            for _ in 0..<20 { consume(try await clients.sendRawDelegate()) }
        }
        if mode == "transport-only" || mode == "raw-data" {
            for _ in 0..<20 {
                consume(try await clients.sendTransportOnly())
                consume(try await clients.sendRawAsData())
            }
        }
        if let authKitSQLite {
            for _ in 0..<20 { consume(try await clients.sendAuthKit(through: authKitSQLite)) }
        }
        if mode == "authkit-unbounded" || mode == "raw-unbounded" {
            for _ in 0..<20 {
                consume(try await clients.sendAuthKitUnbounded())
                consume(try await clients.sendRawUnbounded())
            }
        }
    }
    // The mode chosen once, not per request: comparing its name on every request cost the modes
    // matched second and third about 50 instructions a request more than the first.
    switch mode {
    case "raw": for _ in 0..<count { consume(try await clients.sendRaw()) }
    case "raw-read-timeout": for _ in 0..<count { consume(try await clients.sendRawWithReadTimeout()) }
    case "raw-defaults": for _ in 0..<count { consume(try await clients.sendRawOnDefaults()) }
    case "raw-delegate": for _ in 0..<count { consume(try await clients.sendRawDelegate()) }
    case "transport": for _ in 0..<count { consume(try await clients.sendTransport()) }
    case "authkit-unbounded": for _ in 0..<count { consume(try await clients.sendAuthKitUnbounded()) }
    case "raw-unbounded": for _ in 0..<count { consume(try await clients.sendRawUnbounded()) }
    case "transport-only": for _ in 0..<count { consume(try await clients.sendTransportOnly()) }
    case "raw-data": for _ in 0..<count { consume(try await clients.sendRawAsData()) }
    case "authkit-sqlite":
        guard let authKitSQLite else { fatalError("no SQLite client") }
        for _ in 0..<count { consume(try await clients.sendAuthKit(through: authKitSQLite)) }
    default: for _ in 0..<count { consume(try await clients.sendAuthKit()) }
    }
    try await clients.shutdown()
case "pipeline":
    let url = URL(string: "http://127.0.0.1:8080/v1/me")!
    let answer = AuthResponse(
        head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json", .date: HTTPDate.format(Date())]),
        body: Data(LoopbackServer.body.utf8))
    let clients = try await EndToEndClients(url: url, transport: HTTPClientTransport()) { container in
        container.override(TransportKey.self, with: ClosureTransport { _ in answer })
    }
    for _ in 0..<count { consume(try await clients.authKit.send(.get, url)) }
    try await clients.shutdown()
case "storm", "storm-baseline":
    let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { old in
        try await Task.sleep(for: .milliseconds(10))
        return BearerTokenSet(accessToken: "renewed-access-token", refreshToken: old.refreshToken?.reveal,
                              expiresAt: Date().addingTimeInterval(3 * 3600))
    }
    let noop = ClosureTransport { _ in AuthResponse(status: .ok) }
    let request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/v1/me")!)
    let storms = port ?? 1 // the third argument, a port in the other modes
    for _ in 0..<storms {
        let session = AccountSession(account: AccountKey(namespace: "bench", account: "alice"), strategy: strategy,
                                     vault: CredentialVault(store: InMemoryCredentialStore()))
        try await session.signIn(BearerTokenSet(accessToken: "expired", refreshToken: "refresh",
                                                expiresAt: Date().addingTimeInterval(-60)))
        let client = AuthClient(transport: noop, middlewares: [
            RedirectMiddleware(), RetryMiddleware(), HeadersMiddleware([.userAgent: "bench"]),
            AuthenticationMiddleware(session: session), LoggingMiddleware(logger: Logger(label: "storm") { _ in SwiftLogNoOpLogHandler() }),
        ])
        let before = processCPUNanoseconds()
        let clock = ContinuousClock.now
        let ok = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                if mode == "storm" {
                    group.addTask { try await client.send(request).status.code }
                } else {
                    group.addTask { try await noop.send(request).status.code }
                }
            }
            return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
        }
        let wall = ContinuousClock.now - clock
        let cpu = processCPUNanoseconds() - before
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("\(mode) \(count): ok \(ok), CPU \(cpu / count) ns per request, wall \(wall), maxrss \(usage.ru_maxrss / 1024) MiB")
    }
case "date":
    let value = HTTPDate.format(Date())
    for _ in 0..<count { consume(HTTPDate.parse(value)) }
case "request":
    let url = URL(string: "http://127.0.0.1:8080/v1/me")!
    for _ in 0..<count { consume(try AuthRequest(method: .get, url: url)) }
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
}
}
