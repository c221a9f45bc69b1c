// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AsyncHTTPClient
public import AuthCore
import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A ``/AuthCore/Transport`` over AsyncHTTPClient, with redirects turned off (the redirect middleware
/// follows them, with credential stripping).
///
/// Prefer the scoped form, which shuts the client down however the body ends:
/// ```swift
/// try await HTTPClientTransport.withTransport { transport in
///     let container = AuthContainer()
///     container.useHTTPClient(transport)
///     // make clients of the container and send requests here
/// }
/// ```
/// A transport made with ``init(configuration:maxResponseBytes:responseHeadTimeout:bodyReadTimeout:tls:)``
/// must be shut down with ``shutdown()``.
///
/// With ``TransportTLS`` it checks pinned hosts' keys and presents client certificates; whatever
/// its settings, a certificate-bound token goes only over a connection that presents its
/// certificate (see there).
///
/// The response's head (status and header fields) must come within ``responseHeadTimeout``
/// (30 seconds unless set; a request's ``/AuthCore/RequestOptions/timeout`` replaces it), else the
/// request fails with `AuthError` code `.timeout`, which the retry middleware does not repeat.
/// The body must then bring bytes at least once every ``bodyReadTimeout`` (60 seconds unless
/// set), else the request fails with `.timeout` too; ``/AuthCore/TimeoutMiddleware`` bounds a
/// request whole.
public final class HTTPClientTransport: Transport {
    /// Internal, not private: tests read its tracer.
    let client: HTTPClient
    /// The `HTTPClient` requests go through: the transport's own, or the one it was given.
    ///
    /// Requests sent on it directly share the transport's connections, and do not get its
    /// ``responseHeadTimeout`` or its response conversion. On a transport's own client, HTTP/1
    /// connections keep ``bodyReadTimeout`` for them too (see there). Shut it down with the
    /// transport, not on its own.
    public var httpClient: HTTPClient { client }
    private let ownsClient: Bool
    /// The largest response body read; longer bodies fail with a transport error.
    public let maxResponseBytes: Int
    /// How long a request may wait for its response's head (status and header fields), from the
    /// moment it is handed to AsyncHTTPClient, when its ``/AuthCore/RequestOptions/timeout`` does
    /// not say.
    public let responseHeadTimeout: Duration
    /// ``responseHeadTimeout`` as AsyncHTTPClient takes it.
    private let deadline: TimeAmount
    /// How long a response's body may go without bytes before the request fails with
    /// `AuthError` code `.timeout`; nil for no bound.
    ///
    /// A stalled body fails between this long and two checks more after its last bytes; a check
    /// comes every quarter of this, at most every second, and only while responses come:
    /// - On the HTTP/1 connections of a transport made with its own client
    ///   (`init(configuration:maxResponseBytes:responseHeadTimeout:bodyReadTimeout:)`,
    ///   `withTransport(configuration:responseHeadTimeout:bodyReadTimeout:isolation:_:)`), each
    ///   connection counts its body's parts in its pipeline, and a check on its event loop fails
    ///   the response whose count has not moved for this long (AsyncHTTPClient then closes the
    ///   connection). A request costs nothing more than the count. The handler is added with the
    ///   configuration's `http1_1ConnectionDebugInitializer`; one that the configuration already
    ///   has runs after it.
    /// - Over HTTP/2, and over an `HTTPClient` the caller owns, the body is read in a child task,
    ///   which one sweep for all of the transport's requests cancels when its count of chunks has
    ///   not moved for this long: about 7,000 instructions a request.
    ///
    /// Either way the bytes count as the transport takes them in (AsyncHTTPClient reads from the
    /// connection only as fast as the body is read), so a process whose tasks cannot run for this
    /// long looks the same as a server that stopped. A body whose head announces more than
    /// ``maxResponseBytes`` is refused before it is read.
    ///
    /// A stalled body fails with `.timeout`, which the retry middleware does not repeat, as a
    /// response head that does not come; AsyncHTTPClient's own read timeout, when a
    /// configuration sets it, fails the request with `.transport`.
    ///
    /// AsyncHTTPClient's read timeout (`HTTPClient.Configuration.timeout.read`, off in
    /// ``defaultConfiguration``) bounds the same wait with a timer that every request starts,
    /// moves and stops on its connection's event loop: about 18,000 instructions a request, and
    /// event-loop time that limits throughput when many requests share the loops with a server in
    /// the same process (`Benchmarks/README.md`).
    public let bodyReadTimeout: Duration?
    /// Keeps ``bodyReadTimeout`` with a child task for each body, where `connectionBodies` does not.
    /// Internal, not private: tests count its reads.
    let bodyReads: BodyReadWatch?
    /// Keeps ``bodyReadTimeout`` in each HTTP/1 connection of the transport's own client.
    private let connectionBodies: ConnectionBodyWatch?
    /// The TLS settings; nil for none.
    public let tls: TransportTLS?
    /// The `HTTPClient` of each pinned host or pattern, by ``/AuthCore/CertificatePinning/Entry/pattern``.
    let pinnedClients: [String: HTTPClient]
    /// The TLS configuration of requests to each origin with a client identity.
    let identityConfigurations: [Origin: TLSConfiguration]

    /// Creates a transport with its own `HTTPClient`; call ``shutdown()`` when done.
    ///
    /// A configuration whose tracer is `NoOpTracer` (no tracer was bootstrapped or bound with
    /// `withTracer` when it was made) loses it: AsyncHTTPClient then skips the span it would open,
    /// at some cost, for each request. A tracer that records stays. AsyncHTTPClient reads the
    /// tracer only when its configuration is made: bootstrap yours before making the transport, or
    /// requests get no HTTP client span and carry no trace headers.
    /// - Parameters:
    ///   - configuration: The AsyncHTTPClient configuration; its redirects are turned off.
    ///   - maxResponseBytes: The largest response body read.
    ///   - responseHeadTimeout: How long a request may wait for its response's head.
    ///   - bodyReadTimeout: How long a response's body may go without bytes; nil for no bound.
    ///   - tls: Pins and client certificates; nil for none. Each pinned host or pattern gets an
    ///     `HTTPClient` of its own, made from `configuration`.
    public convenience init(
        configuration: HTTPClient.Configuration = HTTPClientTransport.defaultConfiguration,
        maxResponseBytes: Int = 16 << 20,
        responseHeadTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration? = .seconds(60),
        tls: TransportTLS? = nil
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        // The retry middleware owns retries: AsyncHTTPClient's own retry of connection
        // establishment would hold a refused connection until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.leaveOutNoOpTracer()
        let connections = bodyReadTimeout.map(ConnectionBodyWatch.init(timeout:))
        var pinnedClients: [String: HTTPClient] = [:]
        if let pinning = tls?.pinning {
            for entry in pinning.entries {
                var pinned = configuration
                PinnedConnectionCheck.install(pinning, entry: entry, in: &pinned)
                connections?.install(in: &pinned)
                pinnedClients[entry.pattern] = HTTPClient(eventLoopGroupProvider: .singleton, configuration: pinned)
            }
        }
        connections?.install(in: &configuration)
        let base = configuration.tlsConfiguration ?? .makeClientConfiguration()
        let identityConfigurations = (tls?.clientIdentities ?? [:]).mapValues { identity in
            var presenting = base
            presenting.certificateChain = identity.certificateChain.map { .certificate($0) }
            presenting.privateKey = .privateKey(identity.privateKey)
            return presenting
        }
        self.init(client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration), owned: true, maxResponseBytes, responseHeadTimeout, bodyReadTimeout, connections, tls: tls, pinnedClients: pinnedClients, identityConfigurations: identityConfigurations)
    }

    /// Wraps an `HTTPClient` the caller owns (and shuts down). Its redirect configuration should
    /// be `.disallow`, and `connectionPool.retryConnectionEstablishment` false (else a refused
    /// connection is reported only at the connect timeout): ``defaultConfiguration`` is a good
    /// start.
    /// - Parameters:
    ///   - client: The client requests go through.
    ///   - maxResponseBytes: The largest response body read.
    ///   - responseHeadTimeout: How long a request may wait for its response's head.
    ///   - bodyReadTimeout: How long a response's body may go without bytes; nil for no bound
    ///     (the client's own read timeout, when it has one, applies either way).
    public convenience init(
        client: HTTPClient,
        maxResponseBytes: Int = 16 << 20,
        responseHeadTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration? = .seconds(60)
    ) {
        self.init(client: client, owned: false, maxResponseBytes, responseHeadTimeout, bodyReadTimeout, nil)
    }

    private init(
        client: HTTPClient, owned: Bool, _ maxResponseBytes: Int, _ responseHeadTimeout: Duration, _ bodyReadTimeout: Duration?, _ connections: ConnectionBodyWatch?,
        tls: TransportTLS? = nil, pinnedClients: [String: HTTPClient] = [:], identityConfigurations: [Origin: TLSConfiguration] = [:]
    ) {
        self.client = client
        self.ownsClient = owned
        self.maxResponseBytes = maxResponseBytes
        self.responseHeadTimeout = responseHeadTimeout
        self.deadline = Self.timeAmount(responseHeadTimeout)
        self.bodyReadTimeout = bodyReadTimeout
        self.bodyReads = bodyReadTimeout.map { BodyReadWatch(timeout: $0, loops: client.eventLoopGroup) }
        self.connectionBodies = connections
        self.tls = tls
        self.pinnedClients = pinnedClients
        self.identityConfigurations = identityConfigurations
    }

    /// `duration` in nanoseconds, at least 0 and at most about 292 years.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        guard duration > .zero else { return .zero }
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(.max) }
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// A connect timeout of 10 seconds and no read timeout, redirects off, no retry of connection
    /// establishment (the retry middleware owns retries), and the tracer bootstrapped (or bound
    /// with `withTracer`) at the time this is read, unless it is `NoOpTracer`, which would cost
    /// every request a span that records nothing. Bootstrap a tracer before reading this.
    ///
    /// The response's head is bounded by the transport's ``responseHeadTimeout`` and each wait
    /// for a body's bytes by its ``bodyReadTimeout``, so a server that stops in the middle of a
    /// body cannot hold a request forever. AsyncHTTPClient's read timeout would bound the body
    /// again, at a cost on the connection's event loop for every request (see
    /// ``bodyReadTimeout``). An `HTTPClient` made from this configuration and used without the
    /// transport has no bound on a stalled body: set `timeout.read` for that.
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(10), read: nil)
        configuration.leaveOutNoOpTracer()
        return configuration
    }

    /// Runs `body` with a new transport and shuts it down afterwards.
    ///
    /// `body` runs in the caller's isolation, so it may capture non-`Sendable` state and nest in
    /// other `with…` scopes (`AuthTestServer.withRunning`) in top-level code.
    /// - Parameters:
    ///   - configuration: The AsyncHTTPClient configuration.
    ///   - responseHeadTimeout: How long a request may wait for its response's head.
    ///   - bodyReadTimeout: How long a response's body may go without bytes; nil for no bound.
    ///   - tls: Pins and client certificates; nil for none.
    ///   - isolation: The caller's actor isolation.
    ///   - body: Work to do with the transport.
    public static func withTransport<T>(
        configuration: HTTPClient.Configuration = HTTPClientTransport.defaultConfiguration,
        responseHeadTimeout: Duration = .seconds(30),
        bodyReadTimeout: Duration? = .seconds(60),
        tls: TransportTLS? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HTTPClientTransport) async throws -> T
    ) async throws -> T {
        let transport = HTTPClientTransport(configuration: configuration, responseHeadTimeout: responseHeadTimeout, bodyReadTimeout: bodyReadTimeout, tls: tls)
        do {
            let result = try await body(transport)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Shuts down the clients this transport created (a no-op for a client the caller owns).
    public func shutdown() async throws {
        for pinned in pinnedClients.values { try await pinned.shutdown() }
        if ownsClient { try await client.shutdown() }
    }

    /// Sends the request and reads the whole response.
    ///
    /// A body above 256 KiB becomes `Data` without a copy, holding NIO's buffer (which may have up
    /// to twice the body's capacity); smaller ones are copied.
    ///
    /// The connection goes to ``/AuthCore/AuthRequest/urlForTransport()``: the host and port that
    /// origin checks read, by the same parser.
    /// - Throws: `AuthError` code `.invalidRequest` when the request's target is malformed, or
    ///   when its path holds escapes of bytes that are not UTF-8, which AsyncHTTPClient cannot send;
    ///   `.timeout` when the response's head did not come within the request's
    ///   ``/AuthCore/RequestOptions/timeout`` or ``responseHeadTimeout``, or its body brought no
    ///   bytes for ``bodyReadTimeout``;
    ///   `.transport` when the request cannot be sent or the response cannot be read;
    ///   `AuthError` code `.pinMismatch` when a pinned host's key is none of its
    ///   pins, `.certificateBindingUnmet` when a certificate-bound token would go over a
    ///   connection without its certificate (nothing is sent either way);
    ///   `CancellationError` when the task is cancelled.
    // It copies the request's and the response's bodies, work that stays off an actor's
    // executor (the main actor's, say): a caller isolated to an actor is sent through a
    // `@concurrent` function, as if this one were `@concurrent`. A caller on no actor (a
    // server's task, a command-line tool's) is already off every actor, and is sent through here:
    // one switch of executor fewer a request.
    public nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        if Self.isOnAnActor(#isolation) { return try await exchangeOffActor(request) }
        return try await exchange(request)
    }

    /// Whether `isolation`, a caller's, is an actor's. A function of its own: the comparison
    /// written inline broke the debug build's code generation (Swift 6.3.1).
    private static func isOnAnActor(_ isolation: (any Actor)?) -> Bool {
        isolation != nil
    }

    /// ``send(_:)`` for a caller isolated to an actor: off its executor.
    @concurrent
    private func exchangeOffActor(_ request: AuthRequest) async throws -> AuthResponse {
        try await exchange(request)
    }

    /// Sends the request and reads the whole response, on the executor it is called on.
    private nonisolated(nonsending) func exchange(_ request: AuthRequest) async throws -> AuthResponse {
        // AsyncHTTPClient schedules the deadline on the event loop and cancels it when the
        // head comes. A distant one (an hour, before) sat behind the connection's own timers,
        // and finding it again cost about 2,000 instructions a request.
        let timeout = request.options.timeout.map(Self.timeAmount) ?? deadline
        let maxResponseBytes = min(maxResponseBytes, request.options.maxResponseBytes ?? .max)
        do {
            // A request AsyncHTTPClient cannot take throws `AuthError`, rethrown as it is.
            let (client, tlsConfiguration) = try route(request)
            var outgoing = try Self.outgoing(request)
            outgoing.tlsConfiguration = tlsConfiguration
            let response = try await client.execute(outgoing, timeout: timeout)
            let head = ResponseHead(headers: response.headers)
            let body: ByteBuffer
            if let bodyReads, !(response.version.major == 1 && connectionBodies?.coversEveryConnection == true) {
                let contentLength = ResponseHead.contentLength(in: response.headers)
                let expected = Self.expectedLength(status: response.status, method: request.head.method, contentLength: contentLength)
                body = try await bodyReads.collect(response.body, upTo: maxResponseBytes, expected: expected)
            } else {
                body = try await response.body.collect(upTo: maxResponseBytes)
            }
            return Self.incoming(response.status, head: head, body: body)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as AuthError {
            // A pin mismatch or an unmet certificate binding too: never `.transport`, so the
            // retry middleware does not try another connection.
            throw error
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            if Task.isCancelled { throw CancellationError() }
            let limit = request.options.timeout ?? responseHeadTimeout
            throw AuthError(code: .timeout, message: "\(request.head.method) \(request.origin?.description ?? "?"): no response within \(limit)")
        } catch is NIOTooManyBytesError {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError(code: .responseTooLarge, message: "\(request.head.method) \(request.origin?.description ?? "?"): the response body is larger than \(maxResponseBytes) bytes")
        } catch let error as BodyReadTimedOut {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError(code: .timeout, message: "\(request.head.method) \(request.origin?.description ?? "?"): the response's body brought no bytes for \(error.timeout)")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError.transport("\(request.head.method) \(request.origin?.description ?? "?") failed: \(Self.describe(error))", underlying: error)
        }
    }

    /// The body's length as a response's head gives it, as AsyncHTTPClient reads it: none after a
    /// `HEAD` request or for `304 Not Modified`, else the first `Content-Length` field's value;
    /// nil without one.
    private static func expectedLength(status: HTTPResponseStatus, method: HTTPRequest.Method, contentLength: String?) -> Int? {
        if status == .notModified || method == .head { return 0 }
        return contentLength.flatMap { Int($0, radix: 10) }
    }

    /// AsyncHTTPClient's response status, its header fields and its whole body as an
    /// `AuthResponse`, whose header fields become `HTTPFields` only when read (`ResponseHead`).
    static func incoming(_ status: HTTPResponseStatus, head: ResponseHead, body: ByteBuffer) -> AuthResponse {
        AuthResponse(
            status: Self.status(status),
            fields: head,
            body: Data(buffer: body, byteTransferStrategy: .automatic)
        )
    }

    /// `status` as HTTPTypes holds it; `200 OK`, most responses' status, without checking its
    /// reason phrase's bytes again.
    private static func status(_ status: HTTPResponseStatus) -> HTTPResponse.Status {
        if status.code == 200, status.reasonPhrase == "OK" { return .ok }
        return HTTPResponse.Status(code: Int(status.code), reasonPhrase: status.reasonPhrase)
    }
}
