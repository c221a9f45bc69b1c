// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A small real HTTP server on 127.0.0.1 that echoes what it received as JSON.
struct EchoServer {
    struct Echo: Codable {
        let method: String
        let path: String
        let headers: [String: String]
        let body: String
    }

    /// The text `/gzip` answers, before compression.
    static let plain = "compressed body, decoded by the client\n"
    /// ``plain`` compressed with gzip (`gzip -9n`).
    static let gzipped: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 75, 206, 207, 45, 40, 74, 45, 46, 78, 77, 81, 72, 202, 79, 169, 212, 81, 72, 73, 77,
        206, 79, 1, 241, 42, 21, 74, 50, 82, 21, 146, 115, 50, 83, 243, 74, 184, 0, 123, 245, 26, 5, 39, 0, 0, 0,
    ]

    /// Runs `body` with the base URL of a running echo server, then stops it.
    static func withRunning<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        @Sendable func echo(_ request: Request, _: BasicRequestContext) async throws -> Response {
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let echo = Echo(method: request.method.rawValue, path: request.uri.description, headers: headers, body: String(buffer: bytes))
            let data = try JSONEncoder().encode(echo)
            return Response(status: .ok, headers: [.contentType: "application/json", HTTPField.Name("X-Reply")!: "yes"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] {
            router.on("/echo", method: method, use: echo)
        }
        // Any other GET path echoes too, so that a test can send paths of every shape.
        router.get("/**", use: echo)
        router.get("/redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/echo"])
        }
        // A gzip-compressed body, whatever the request accepts (``gzipped``).
        router.get("/gzip") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain", .contentEncoding: "gzip"], body: .init(byteBuffer: ByteBuffer(bytes: gzipped)))
        }
        // Answers after ten minutes, or `ms` milliseconds: for timeouts and cancellation, which
        // a test tells from the answer by the outcome (stopping the server does not wait for it).
        router.get("/slow") { request, _ -> Response in
            try await Task.sleep(for: .milliseconds(request.uri.queryParameters.get("ms", as: Int.self) ?? 600_000))
            return Response(status: .ok)
        }
        let port = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.continuation.yield(channel.localAddress?.port ?? 0)
                port.continuation.finish()
            }
        )
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        var iterator = port.stream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else { throw CancellationError() }
        let result = try await body(URL(string: "http://127.0.0.1:\(bound)")!)
        server.cancel()
        _ = await server.result
        return result
    }
}
