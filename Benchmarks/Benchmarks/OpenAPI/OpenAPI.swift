// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// AuthOpenAPI's cost per call (issues 22 and 53): a call of the client generated from
// AuthTestServer's OpenAPI document through AuthOpenAPIMiddleware, against the same call through
// a plain ClientMiddleware that only sets the Authorization field, paired in the same iteration
// (OpenAPISupport's OpenAPIClients). Both end at a ClientTransport that reads the request body
// and answers at once, so the difference is the adapter and AuthKit's middlewares, not the
// network. Two pipelines: authentication alone (the header-only middleware's job; issue 53's
// target is +1 µs), and the standard one (redirect, retry, headers, authentication).
import AuthTestServerAPI
import Benchmark
import BenchmarkSupport
import OpenAPISupport

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    for standard in [false, true] {
        let pipeline = standard ? "the standard pipeline" : "authentication only"
        Benchmark("generated getMe() through AuthOpenAPIMiddleware (\(pipeline)) vs a header-only ClientMiddleware", configuration: paired) { (benchmark: Benchmark, clients: OpenAPIClients) in
            try await Paired.measure(benchmark) {
                for _ in benchmark.scaledIterations { blackHole(try await clients.plain.getMe().ok.body.json) }
            } subject: {
                for _ in benchmark.scaledIterations { blackHole(try await clients.measured.getMe().ok.body.json) }
            }
        } setup: {
            try await OpenAPIClients(standard: standard)
        }

        Benchmark("generated register() POST 1 KiB through AuthOpenAPIMiddleware (\(pipeline)) vs a header-only ClientMiddleware", configuration: paired) { (benchmark: Benchmark, clients: OpenAPIClients) in
            let credentials = OpenAPIClients.kibibyteCredentials
            try await Paired.measure(benchmark) {
                for _ in benchmark.scaledIterations { blackHole(try await clients.plain.register(body: .json(credentials)).created.body.json) }
            } subject: {
                for _ in benchmark.scaledIterations { blackHole(try await clients.measured.register(body: .json(credentials)).created.body.json) }
            }
        } setup: {
            try await OpenAPIClients(standard: standard)
        }
    }
}
