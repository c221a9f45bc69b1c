// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Bounds each wait for a response body's bytes on the HTTP/1 connections of a transport's own
/// `HTTPClient`, in the connection's pipeline: no task, lock or timer for each request.
///
/// Each connection gets a ``StalledBodyHandler`` when AsyncHTTPClient makes it, before the
/// connection takes its first request (`http1_1ConnectionDebugInitializer`, which AsyncHTTPClient
/// awaits before it hands the connection out). The handler sits after the response decoder, counts
/// the body's parts as they come, and a check on the connection's event loop, every ``interval``
/// while responses come, fails the request whose count has not moved for ``timeout``: the request's
/// body then throws ``BodyReadTimedOut``, and AsyncHTTPClient closes the connection.
///
/// A connection whose pipeline has no response decoder where one is looked for (a later
/// AsyncHTTPClient that builds it otherwise) gets no handler, and ``coversEveryConnection`` turns
/// false for good before that connection is handed out: the transport then bounds every body with
/// ``BodyReadWatch``, as for HTTP/2 and for an `HTTPClient` the caller owns.
final class ConnectionBodyWatch: Sendable {
    /// How long a body may go without bytes.
    let bound: Duration
    /// ``bound`` as NIO takes it.
    let timeout: TimeAmount
    /// How often a connection that is reading a body looks at its count (as ``BodyReadWatch``'s
    /// sweep: a stalled body ends between ``timeout`` and two of these after it).
    let interval: TimeAmount
    private let covered = Atomic(true)

    init(timeout: Duration) {
        bound = timeout
        self.timeout = HTTPClientTransport.timeAmount(timeout)
        interval = HTTPClientTransport.timeAmount(BodyReadWatch.interval(for: timeout))
    }

    /// Whether every HTTP/1 connection made so far has a handler. A response's connection was made
    /// before its head came, so a response read after this answers true had one.
    var coversEveryConnection: Bool { covered.load(ordering: .acquiring) }

    /// `configuration` with a handler added to every HTTP/1 connection, before the initializer it
    /// already had (which still runs, after).
    func install(in configuration: inout HTTPClient.Configuration) {
        let earlier = configuration.http1_1ConnectionDebugInitializer
        configuration.http1_1ConnectionDebugInitializer = { [self] channel in
            let added: EventLoopFuture<Void>
            if channel.eventLoop.inEventLoop {
                addHandler(to: channel)
                added = channel.eventLoop.makeSucceededVoidFuture()
            } else {
                added = channel.eventLoop.submit { self.addHandler(to: channel) }
            }
            guard let earlier else { return added }
            return added.flatMap { earlier(channel) }
        }
    }

    /// Adds a handler after `channel`'s response decoder, on its event loop; when there is none,
    /// records that not every connection is covered.
    func addHandler(to channel: any Channel) {
        let pipeline = channel.pipeline.syncOperations
        guard let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self),
              (try? pipeline.addHandler(StalledBodyHandler(self), position: .after(decoder))) != nil
        else {
            covered.store(false, ordering: .releasing)
            return
        }
    }
}

/// Counts a connection's response body parts, and fails the response whose count has not moved
/// for its watch's ``ConnectionBodyWatch/timeout``. Lives on its connection's event loop.
final class StalledBodyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    private let watch: ConnectionBodyWatch
    /// Between a final response's head and its end.
    private var inBody = false
    /// Body parts received; the count the last check saw, and when it first saw it.
    private var parts = 0
    private var seen = -1
    private var since = NIODeadline.distantFuture
    /// Whether a response began since the last check: the checks stop only after an interval
    /// without one, so that requests one after another do not start them each time.
    private var began = false
    private var check: Scheduled<Void>?

    init(_ watch: ConnectionBodyWatch) {
        self.watch = watch
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .body:
            parts &+= 1
        case .head(let head) where head.status.code >= 200:
            (inBody, began, seen) = (true, true, -1)
            if check == nil { scheduleCheck(context) }
        case .end:
            inBody = false
        case .head:
            break  // 1xx: the final head is still to come, under the response head's own bound.
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopChecking()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopChecking()
    }

    private func stopChecking() {
        check?.cancel()
        check = nil
        inBody = false
    }

    private func scheduleCheck(_ context: ChannelHandlerContext) {
        check = context.eventLoop.assumeIsolated().scheduleTask(in: watch.interval) { [self] in
            check = nil
            if look(at: context.eventLoop.now, context) { scheduleCheck(context) }
        }
    }

    /// Fails the response when its count has not moved for the timeout; whether to look again.
    private func look(at now: NIODeadline, _ context: ChannelHandlerContext) -> Bool {
        if inBody {
            if parts != seen {
                (seen, since) = (parts, now)
            } else if now - since >= watch.timeout {
                inBody = false
                context.fireErrorCaught(BodyReadTimedOut(timeout: watch.bound))
            }
            began = false
            return true
        }
        defer { began = false }
        return began
    }
}
