// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Hummingbird
import Logging
import NIOCore

/// The server of the end-to-end benchmarks: Hummingbird on 127.0.0.1 and a free port, answering
/// `GET /v1/me` with a small JSON body (and the `Date` field Hummingbird puts on every response),
/// or 401 without an `Authorization` field.
public enum LoopbackServer {
    /// The body of every answer.
    public static let body = #"{"id":"0123456789","username":"alice","email":"alice@example.com","roles":["reader"]}"#

    /// Starts the server; returns its port and the task that runs it (cancel it to stop).
    public static func start() async throws -> (port: Int, task: Task<Void, any Error>) {
        let router = Router()
        let answer = ByteBuffer(string: body)
        router.get("v1/me") { request, _ -> Response in
            guard request.headers[.authorization] != nil else { return Response(status: .unauthorized) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: answer))
        }
        var logger = Logger(label: "loopback-server")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw LoopbackServerError()
        }
        return (port, task)
    }
}

/// The server did not start.
public struct LoopbackServerError: Error, CustomStringConvertible {
    public var description: String { "the loopback server did not start listening" }
}
