// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Collects a response's head and whole body (at most `limit` bytes) for AsyncHTTPClient's
/// delegate API, as `EndToEndClients.sendRawDelegate()` uses it.
///
/// `@unchecked Sendable`: AsyncHTTPClient calls a delegate on its task's event loop only, one
/// call after another, so the state is never reached from two threads at once.
final class DelegateCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Response: Sendable {
        let head: HTTPResponseHead
        let body: ByteBuffer
    }

    enum Failure: Error {
        /// The body was longer than the limit.
        case tooLong
        /// The request finished without a head.
        case noHead
    }

    private let limit: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(limit: Int) {
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard buffer.readableBytes <= limit - body.readableBytes else { return task.eventLoop.makeFailedFuture(Failure.tooLong) }
        // The first part as it came, without a copy; later ones appended to it.
        if body.capacity == 0 {
            body = buffer
        } else {
            var buffer = buffer
            body.writeBuffer(&buffer)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw Failure.noHead }
        return Response(head: head, body: body)
    }
}
