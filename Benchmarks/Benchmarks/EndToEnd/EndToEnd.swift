// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// End to end over real HTTP (issue 23): raw AsyncHTTPClient against the AuthKit client of
// `AuthContainer.makeClient` over `HTTPClientTransport`, both sending `GET /v1/me` with a bearer
// token to a Hummingbird server on 127.0.0.1 in this process, at concurrency 1, 16 and 64. With
// `E2E_SERVER=process` in the environment, the server runs in a process of its own (this
// executable started again, `LoopbackServerProcess`).
//
// Each iteration sends one batch raw and the same batch through AuthKit, raw first in one round
// and AuthKit first in the next (so a load spike hits both, and neither always goes second), both
// timed alike. A control puts raw in both slots: its ratio is the suite's own noise, about 1000.
// `paired: ratio x1000` is AuthKit's wall time ÷ raw's: at most 1031 means AuthKit's throughput
// is at least 0.97 × raw's. `CPU ratio x1000` is the same for the process's CPU time. With the
// server in this process, that is the client's and the server's, and the server's share, the
// same in both, makes it understate the client's difference. With `E2E_SERVER=process` it is the
// client's alone. Benchmarks/scripts/callgrind-e2e counts the client's instructions.
//
// Three baselines: raw AsyncHTTPClient over the AuthKit client's own `HTTPClient`, its
// transport's (the same AsyncHTTPClient work, the connections' bound on a stalled body included,
// so the difference is AuthKit's);
// raw AsyncHTTPClient with a 60-second read timeout, the same bound kept AsyncHTTPClient's way;
// and raw AsyncHTTPClient on AsyncHTTPClient's default configuration, as an application without
// AuthKit has it. The last two have clients of their own, whose connections may land on other
// event loops than the AuthKit client's, which moves a whole run by a few per cent: compare
// medians of several runs. A fourth comparison puts the AuthKit client over a transport with no
// bound on a stalled body (`bodyReadTimeout: nil`, on an `HTTPClient` of the caller's) against raw
// on that `HTTPClient`, which has none either: what AuthKit costs beyond the bound. At
// concurrency 1, `HTTPClientTransport` alone with a request made once, against raw on the same
// `HTTPClient`, shows how much of AuthKit's difference is the transport's conversions, and raw
// with its body made `Data` how much of those the body's type asks for.
import AsyncHTTPClient
import AuthCore
import Benchmark
import BenchmarkSupport
import EndToEndSupport
import Foundation
import Synchronization

/// The server and clients, started once per benchmark process.
final class Fixture: Sendable {
    let clients: EndToEndClients
    let server: Server

    /// Where the loopback server runs.
    enum Server {
        case inProcess(Task<Void, any Error>)
        case process(LoopbackServerProcess)

        func stop() {
            switch self {
            case .inProcess(let task): task.cancel()
            case .process(let process): process.stop()
            }
        }
    }

    init() async throws {
        let port: Int
        switch ProcessInfo.processInfo.environment["E2E_SERVER"] {
        case "process":
            let process = try LoopbackServerProcess()
            (port, server) = (process.port, .process(process))
        case nil, "":
            let (listening, task) = try await LoopbackServer.start()
            (port, server) = (listening, .inProcess(task))
        case let other?:
            throw FixtureError(description: "E2E_SERVER=\(other): set it to `process`, or leave it unset for a server in this process")
        }
        do {
            clients = try await EndToEndClients(port: port)
        } catch {
            server.stop()
            throw error
        }
        do {
            // Connections opened and every path warmed before the first measured batch.
            for _ in 0..<64 {
                _ = try await clients.sendAuthKit()
                _ = try await clients.sendAuthKitUnbounded()
                _ = try await clients.sendRaw()
                _ = try await clients.sendRawUnbounded()
                _ = try await clients.sendRawWithReadTimeout()
                _ = try await clients.sendRawOnDefaults()
                _ = try await clients.sendTransportOnly()
                _ = try await clients.sendRawAsData()
            }
        } catch {
            try? await stop()
            throw error
        }
    }

    func stop() async throws {
        defer { server.stop() }
        try await clients.shutdown()
    }
}

/// The fixture could not start.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

let fixture = Mutex<Fixture?>(nil)
/// Counts rounds, to alternate which client goes first.
let round = Atomic<Int>(0)

/// `total` requests sent by `concurrency` workers, each one after another.
func batch(_ concurrency: Int, total: Int, _ send: @escaping @Sendable () async throws -> Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<concurrency {
            let share = total / concurrency + (worker < total % concurrency ? 1 : 0)
            group.addTask { for _ in 0..<share { blackHole(try await send()) } }
        }
        try await group.waitForAll()
    }
}

let cpuRatio = BenchmarkMetric.custom("CPU ratio x1000", useScalingFactor: false)

/// One way of sending the batch's requests, and its name in a benchmark's.
typealias Sender = (name: String, send: @Sendable (EndToEndClients) async throws -> Int)

let authKitClient: Sender = ("AuthKit", { try await $0.sendAuthKit() })
let rawClient: Sender = ("raw AsyncHTTPClient", { try await $0.sendRaw() })

/// The AuthKit clients and what each is compared with (the first three named as before the
/// fourth existed, so that their figures compare with earlier runs'), at concurrency 1, 16 and 64.
let comparisons: [(subject: Sender, baseline: Sender)] = [
    (authKitClient, rawClient),
    (authKitClient, ("raw AsyncHTTPClient with a read timeout", { try await $0.sendRawWithReadTimeout() })),
    (authKitClient, ("raw AsyncHTTPClient on its own defaults", { try await $0.sendRawOnDefaults() })),
    (("AuthKit with no bound on a stalled body", { try await $0.sendAuthKitUnbounded() }),
     ("raw AsyncHTTPClient with no bound", { try await $0.sendRawUnbounded() })),
    // The control: the same client in both slots, so its ratio is the suite's own noise and bias.
    (("raw AsyncHTTPClient", { try await $0.sendRaw() }), ("itself", { try await $0.sendRaw() })),
]

/// Raw AsyncHTTPClient with its body made `Data`, as `AuthResponse.body` is and as an application
/// decoding JSON with Foundation makes it.
let rawAsDataClient: Sender = ("raw AsyncHTTPClient, body made Data", { try await $0.sendRawAsData() })

/// At concurrency 1 only, where AuthKit is furthest from raw (issue 23), against raw on the same
/// `HTTPClient`: `HTTPClientTransport` alone with a request made once, which splits AuthKit's
/// difference into the transport's conversions and the rest (the pipeline, making the request);
/// and raw with its body made `Data`, the part of the conversions that `AuthResponse.body`'s
/// type (and any application decoding JSON with Foundation) asks for. And AuthKit against that
/// application, in one pair rather than by subtraction.
let decomposition: [(subject: Sender, baseline: Sender)] = [
    (("HTTPClientTransport alone, request made once", { try await $0.sendTransportOnly() }), rawClient),
    (rawAsDataClient, rawClient),
    (authKitClient, rawAsDataClient),
]

let benchmarks: @Sendable () -> Void = {
    // This executable is also the server that `LoopbackServerProcess` starts.
    LoopbackServer.serveIfAsked()
    let cases = comparisons.flatMap { pair in [(1, 100), (16, 320), (64, 640)].map { (pair.subject, pair.baseline, $0.0, $0.1) } }
        + decomposition.map { ($0.subject, $0.baseline, 1, 100) }
    for (subject, baseline, concurrency, total) in cases {
        var configuration = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 3, maxDuration: .seconds(20), maxIterations: 60)
        configuration.metrics = Paired.metrics + [cpuRatio]
        Benchmark("\(subject.name) vs \(baseline.name), concurrency \(concurrency), \(total) GET per batch", configuration: configuration) { (benchmark: Benchmark, fixture: Fixture) in
            let clients = fixture.clients
            // Rounds alternate which client goes first, so neither always meets a pool the other
            // has just warmed or a core the other has just left busy.
            let rawFirst = round.add(1, ordering: .relaxed).oldValue % 2 == 0
            // Both batches are timed alike, inside the measured region (whose start and stop read
            // the benchmark's own metrics, the allocator's statistics and the process's CPU time),
            // so that neither slot is favoured: the control comparison, raw against itself, reads
            // about 1000.
            func timed(_ sender: Sender) async throws -> (wall: Int, cpu: Int) {
                let start = (wall: Paired.wall(), cpu: CPUTime.now())
                try await batch(concurrency, total: total) { try await sender.send(clients) }
                return (wall: Paired.wall() - start.wall, cpu: CPUTime.now() - start.cpu)
            }
            benchmark.startMeasurement()
            let subjectTime: (wall: Int, cpu: Int)
            let baselineTime: (wall: Int, cpu: Int)
            if rawFirst {
                baselineTime = try await timed(baseline)
                subjectTime = try await timed(subject)
            } else {
                subjectTime = try await timed(subject)
                baselineTime = try await timed(baseline)
            }
            benchmark.stopMeasurement()
            Paired.record(benchmark, subject: subjectTime.wall, baseline: baselineTime.wall, cpu: subjectTime.cpu) { $0 }
            benchmark.measurement(cpuRatio, subjectTime.cpu * 1_000 / max(1, baselineTime.cpu))
        } setup: {
            let made = try await Fixture()
            fixture.withLock { $0 = made }
            return made
        } teardown: {
            try await fixture.withLock { $0.take() }?.stop()
        }
    }
}
