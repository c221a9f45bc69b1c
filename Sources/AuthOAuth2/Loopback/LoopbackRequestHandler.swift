// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOHTTP1

/// Answers the first request head of a loopback connection, then closes it: the page for the
/// awaited redirect, `421` for a `Host` other than the redirect URI's, `400` for a request to
/// the path that is not the redirect, `404` for anything else. Every answer says
/// `Connection: close`; what comes after the first head is ignored.
final class LoopbackRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let session: LoopbackSession
    private var answered = false

    init(session: LoopbackSession) {
        self.session = session
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data), !answered else { return }
        answered = true
        let hosts = head.headers["Host"]
        guard hosts.count == 1, let host = hosts.first else {
            return answer(context, head, .badRequest, "a request to this listener carries exactly one Host field")
        }
        guard host == session.expectedHost else {
            return answer(context, head, .misdirectedRequest, "this listener answers requests for \(session.expectedHost) only")
        }
        let requestPath = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? head.uri
        guard head.method == .GET, requestPath == session.path else {
            return answer(context, head, .notFound, "not found")
        }
        guard case .redirect = session.judge(head.uri) else {
            return answer(context, head, .badRequest, "not the redirect of this sign-in")
        }
        let target = head.uri
        let session = self.session
        answer(context, head, .ok, session.page, html: true) { session.deliver(target) }
    }

    /// Writes the answer, then closes the connection and runs `then`.
    private func answer(
        _ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus, _ body: String,
        html: Bool = false, then: (@Sendable () -> Void)? = nil
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(promise: nil)
            then?()
        }
    }
}
