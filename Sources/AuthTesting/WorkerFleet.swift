// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Synchronization

/// Worker processes (`auth-store-worker serve`), each with its own pool, container and session on
/// one PostgreSQL store, driven over standard input; their output lines merged into one stream.
/// For tests of what a fleet of machines sharing a store does (see `auth-store-worker`'s header
/// for its commands and environment).
///
/// ```swift
/// try await PostgresTestCluster.withCluster { cluster in
///     let server = URL(string: "http://127.0.0.1:8080/")!   // an AuthTestServer's base URL
///     let fleet = try WorkerFleet(count: 8, store: cluster.url, server: server, account: "service")
///     guard await fleet.ready() else { return }
///     print(await fleet.burst(50))   // [worker: "ok 50"]
///     await fleet.quit()
/// }
/// ```
public final class WorkerFleet: Sendable {
    /// The worker processes.
    public let workers: [HelperProcess]
    /// Every worker's lines, as (worker index, line); one consumer at a time.
    public let lines: AsyncStream<(Int, String)>
    private let killed = Mutex<Set<Int>>([])

    /// Starts `count` workers acting for `fleet/<account>` on the PostgreSQL store at `store`,
    /// against the server at `server`; `environment` is added to each worker's.
    public init(count: Int, store: String, server: URL, account: String, environment: [String: String] = [:]) throws {
        workers = try (0..<count).map { _ in
            try HelperProcess(named: "auth-store-worker", arguments: ["postgres", store, server.absoluteString, "fleet", account, "serve"], environment: environment)
        }
        let (lines, continuation) = AsyncStream<(Int, String)>.makeStream()
        self.lines = lines
        let readers = workers.enumerated().map { index, worker in
            Task {
                for await line in worker.lines { continuation.yield((index, line)) }
            }
        }
        Task {
            for reader in readers { await reader.value }
            continuation.finish()
        }
    }

    /// Waits until every worker printed `ready`; false when one ended first.
    public func ready() async -> Bool {
        var ready = Set<Int>()
        for await (index, line) in lines {
            if line == "ready" { ready.insert(index) }
            if line.hasPrefix("error") { return false }
            if ready.count == workers.count { return true }
        }
        return false
    }

    /// The workers not killed.
    public var live: Set<Int> { Set(workers.indices).subtracting(killed.withLock { $0 }) }

    /// Sends `command` to every live worker.
    public func send(_ command: String) {
        for index in live { workers[index].send(command) }
    }

    /// Sends `command` to worker `index`.
    public func send(_ command: String, to index: Int) {
        workers[index].send(command)
    }

    /// Sends `go <count>` to every live worker and collects their results (`ok 50`, `fail …`)
    /// for at most `limit`; a worker missing from the result did not finish in time (then the
    /// fleet's ``lines`` have ended). Every other line goes to `onLine` with the index of the
    /// worker that printed it (`renewing <pid>`…).
    public func burst(_ count: Int, within limit: Duration = .seconds(120), onLine: @escaping @Sendable (Int, String) -> Void = { _, _ in }) async -> [Int: String] {
        send("go \(count)")
        let results = await collect(within: limit, onLine: onLine) { [self] results in live.isSubset(of: results.keys) }
        return results.compactMapValues(\.first)
    }

    /// Collects the workers' results (`ok …`, `fail …`, `error …`; each worker's in order) until
    /// `done` says so or `limit` passes (then the fleet's ``lines`` have ended). Every other line
    /// goes to `onLine`.
    public func collect(within limit: Duration, onLine: @escaping @Sendable (Int, String) -> Void = { _, _ in }, until done: @escaping @Sendable ([Int: [String]]) -> Bool) async -> [Int: [String]] {
        let lines = self.lines
        return await withTaskGroup(of: [Int: [String]]?.self) { group in
            group.addTask {
                var results: [Int: [String]] = [:]
                for await (index, line) in lines {
                    if line.hasPrefix("ok") || line.hasPrefix("fail") || line.hasPrefix("error") {
                        results[index, default: []].append(line)
                    } else {
                        onLine(index, line)
                    }
                    if done(results) { break }
                }
                return results
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            // The reader's results; at the time limit, the reader is cancelled and gives what it
            // has (the stream then ends: a fleet that did not finish is not used again).
            while let next = await group.next() {
                group.cancelAll()
                if let results = next { return results }
            }
            return [:]
        }
    }

    /// Kills worker `index` with SIGKILL.
    public func kill(_ index: Int) {
        killed.withLock { _ = $0.insert(index) }
        workers[index].killWithSIGKILL()
    }

    /// Ends every worker.
    public func quit() async {
        for worker in workers { worker.send("quit") }
        for worker in workers { _ = await worker.waitForExit() }
    }
}
