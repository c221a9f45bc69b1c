// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthHTTPClient
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// The bound on a stalled body that an HTTP/1 connection keeps in its pipeline, on an
/// `EmbeddedChannel` whose clock the test moves: AsyncHTTPClient's encoder and response decoder
/// as it sets them, then the handler the watch adds. A bound of 400 ms checks every 100 ms.
@Suite struct ConnectionBodyWatchTests {
    static let bound = Duration.milliseconds(400)

    /// A channel with the encoder, the decoder and the watch's handler, after a `GET /` was sent.
    static func connection(_ watch: ConnectionBodyWatch = ConnectionBodyWatch(timeout: bound)) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(HTTPRequestEncoder())
        try pipeline.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)))
        watch.addHandler(to: channel)
        try send(on: channel)
        return channel
    }

    /// Writes a `GET /` and drops its bytes.
    static func send(on channel: EmbeddedChannel) throws {
        try channel.writeOutbound(HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        while try channel.readOutbound(as: ByteBuffer.self) != nil {}
    }

    /// `text` from the server.
    static func receive(_ text: String, on channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
        while try channel.readInbound(as: HTTPClientResponsePart.self) != nil {}
    }

    /// Moves the clock by `milliseconds`.
    static func wait(_ milliseconds: Int64, on channel: EmbeddedChannel) {
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(milliseconds))
    }

    /// Whether the handler has failed the response (the error reached the pipeline's end).
    static func failed(_ channel: EmbeddedChannel) -> Bool {
        do {
            try channel.throwIfErrorCaught()
            return false
        } catch let error as BodyReadTimedOut {
            return error.timeout == bound
        } catch {
            return false
        }
    }

    @Test func aBodyThatStopsIsFailedAtTheBoundAndNotBefore() throws {
        let channel = try Self.connection()
        try Self.receive("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n01234", on: channel)
        // The first check (at 100 ms) sees the count; the bound runs from there.
        Self.wait(400, on: channel)
        #expect(!Self.failed(channel))
        Self.wait(100, on: channel)
        #expect(Self.failed(channel))
        // Once: the checks do not fail it again.
        Self.wait(1_000, on: channel)
        #expect(!Self.failed(channel))
    }

    @Test func aBodyThatKeepsComingIsNotFailed() throws {
        let channel = try Self.connection()
        try Self.receive("HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n", on: channel)
        for _ in 0..<20 {
            Self.wait(300, on: channel)
            try Self.receive("x", on: channel)
        }
        #expect(!Self.failed(channel))
        // The response ended: an idle connection is not failed however long it waits.
        Self.wait(5_000, on: channel)
        #expect(!Self.failed(channel))
    }

    /// The count the checks last saw belongs to the response before: a response that begins
    /// after a pause longer than the bound, and brings no part before the next check, is given
    /// the whole bound again. (The first response's last chunk is seen by a check before its end
    /// comes, so both counts are the same.)
    @Test func aResponseAfterAPauseGetsTheWholeBound() throws {
        let channel = try Self.connection()
        try Self.receive("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n", on: channel)
        Self.wait(150, on: channel)
        try Self.receive("0\r\n\r\n", on: channel)
        Self.wait(1_000, on: channel)
        try Self.send(on: channel)
        try Self.receive("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", on: channel)
        Self.wait(400, on: channel)
        #expect(!Self.failed(channel))
        Self.wait(100, on: channel)
        #expect(Self.failed(channel))
    }

    /// An interim `100 Continue` does not start the bound: until the final head, the wait is the
    /// response head's, which AsyncHTTPClient's deadline keeps.
    @Test func anInterimResponseDoesNotStartTheBound() throws {
        let channel = try Self.connection()
        try Self.receive("HTTP/1.1 100 Continue\r\n\r\n", on: channel)
        Self.wait(2_000, on: channel)
        #expect(!Self.failed(channel))
        try Self.receive("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n", on: channel)
        Self.wait(500, on: channel)
        #expect(Self.failed(channel))
    }

    /// The watch finds the decoder and covers the connection; on a pipeline without one it adds
    /// nothing and no longer claims to cover every connection, so the transport reads bodies with
    /// a bound of its own.
    @Test func aPipelineWithoutTheDecoderTurnsTheWatchOff() throws {
        let watch = ConnectionBodyWatch(timeout: Self.bound)
        _ = try Self.connection(watch)
        #expect(watch.coversEveryConnection)
        let other = EmbeddedChannel()
        try other.pipeline.syncOperations.addHandler(HTTPRequestEncoder())
        watch.addHandler(to: other)
        #expect(!watch.coversEveryConnection)
        #expect(throws: ChannelPipelineError.self) { try other.pipeline.syncOperations.handler(type: StalledBodyHandler.self) }
        // One more covered connection does not turn it back on.
        _ = try Self.connection(watch)
        #expect(!watch.coversEveryConnection)
    }
}
