// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AsyncHTTPClient
public import AuthCore
public import AuthHTTPClient
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The clients the end-to-end benchmarks compare, all sending `GET /v1/me` with a bearer token to
/// the loopback server:
/// - raw: AsyncHTTPClient as its documentation shows it, the token put on by hand, over the same
///   `HTTPClient` as the AuthKit client, the transport's own (`httpClient`; so one connection
///   pool: the same connections, on the same event loops, carry both clients' requests; with a
///   pool each, the event loop a connection landed on against the server's made one client or the
///   other up to 7 % faster for a whole run). That client has
///   `HTTPClientTransport.defaultConfiguration`, and its connections keep the transport's bound on
///   a stalled body for raw's requests too: the same AsyncHTTPClient work under both, so the
///   difference is AuthKit's own;
/// - raw with a read timeout: the same requests over an `HTTPClient` of its own with
///   `HTTPClientTransport.defaultConfiguration` and AsyncHTTPClient's 60-second read timeout, the
///   same bound on a stalled body that the AuthKit client's transport keeps (its
///   `bodyReadTimeout`), kept AsyncHTTPClient's way;
/// - raw on AsyncHTTPClient's defaults: the same requests over an `HTTPClient` of its own made with
///   AsyncHTTPClient's default configuration, as an application without AuthKit would make it;
/// - AuthKit: a client of `AuthContainer.makeClient` (the standard middlewares) over
///   `HTTPClientTransport`, signed in with a token valid for a day, called as the README does,
///   `send(.get, url)`;
/// - AuthKit with a SQLite credential store (`makeAuthKit(_:)` with `useSQLiteStore(at:)`, made by
///   `e2e-driver authkit-sqlite`): the same client, its sign-in written to SQLite;
/// - AuthKit without a bound on the body: the same, over a transport with `bodyReadTimeout: nil`
///   on an `HTTPClient` of the caller's with `HTTPClientTransport.defaultConfiguration`, against
///   raw on that client (`rawUnbounded`; neither bounds a stalled body), so that the difference
///   is the pipeline's and the transport's conversions alone;
/// - `HTTPClientTransport` alone with a request made once, the token on it
///   (`sendTransportOnly()`): what the transport's conversions cost, without the pipeline or
///   the making of a request;
/// - raw AsyncHTTPClient over `raw` with the body made `Data` (`sendRawAsData()`), as
///   `AuthResponse.body` is and as an application decoding it with Foundation's `JSONDecoder`
///   does (NIO's `decode(_:from: ByteBuffer)` makes the same `Data`);
/// - and, for reference only, raw AsyncHTTPClient through its delegate API over `raw`
///   (`sendRawDelegate()`).
public final class EndToEndClients: Sendable {
    public static let token = "e2e-access-token-0123456789abcdef"
    /// `http://127.0.0.1:<port>/v1/me`.
    public let url: URL
    public let raw: HTTPClient
    /// An `HTTPClient` with `HTTPClientTransport.defaultConfiguration` whose connections keep no
    /// bound on a stalled body, under ``authKitUnbounded`` (made by ``init(port:)``; else `raw`).
    public let rawUnbounded: HTTPClient
    /// An `HTTPClient` with `HTTPClientTransport.defaultConfiguration` and a 60-second read timeout.
    public let rawWithReadTimeout: HTTPClient
    /// An `HTTPClient` with AsyncHTTPClient's default configuration.
    public let rawOnDefaults: HTTPClient
    public let transport: HTTPClientTransport
    /// `GET /v1/me` with the bearer token, made once, for ``sendTransportOnly()``.
    private let madeRequest: AuthRequest
    public let authKit: AccountClient<BearerStrategy>
    /// A client like ``authKit`` over a transport on ``rawUnbounded`` with no bound on a stalled
    /// body (made by ``init(port:)``; ``init(url:raw:rawUnbounded:transport:configure:configureUnbounded:)``
    /// without `configureUnbounded` makes a second client like ``authKit``).
    public let authKitUnbounded: AccountClient<BearerStrategy>

    /// Clients of the server at `port`, the AuthKit one signed in.
    public convenience init(port: Int) async throws {
        let transport = HTTPClientTransport()
        let plain = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClientTransport.defaultConfiguration)
        let unbounded = HTTPClientTransport(client: plain, bodyReadTimeout: nil)
        do {
            try await self.init(
                url: URL(string: "http://127.0.0.1:\(port)/v1/me")!, raw: transport.httpClient, rawUnbounded: plain, transport: transport,
                configure: { $0.useHTTPClient(transport) }, configureUnbounded: { $0.useHTTPClient(unbounded) })
        } catch {
            try? await transport.shutdown()
            try? await plain.shutdown()
            throw error
        }
    }

    /// Clients of `url` whose AuthKit client sends through what `configure` registers (the
    /// unbounded one through what `configureUnbounded` registers, else the same); the raw one
    /// through `raw` (a client of its own when nil), which may be `transport`'s `httpClient`; the
    /// unbounded raw one through `rawUnbounded` (`raw` when nil).
    public init(
        url: URL, raw: HTTPClient? = nil, rawUnbounded: HTTPClient? = nil, transport: HTTPClientTransport,
        configure: (AuthContainer) -> Void, configureUnbounded: ((AuthContainer) -> Void)? = nil
    ) async throws {
        // Signed in before this makes its raw clients, so that a failure leaves none of those
        // behind (what the caller passed in stays the caller's).
        authKit = try await Self.signedIn(url: url, configure)
        if let configureUnbounded {
            authKitUnbounded = try await Self.signedIn(url: url, configureUnbounded)
        } else {
            authKitUnbounded = try await Self.signedIn(url: url, configure)
        }
        self.url = url
        madeRequest = try AuthRequest(method: .get, url: url, headerFields: [.authorization: "Bearer \(Self.token)"])
        let raw = raw ?? HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClientTransport.defaultConfiguration)
        self.raw = raw
        self.rawUnbounded = rawUnbounded ?? raw
        var withReadTimeout = HTTPClientTransport.defaultConfiguration
        withReadTimeout.timeout.read = .seconds(60)
        rawWithReadTimeout = HTTPClient(eventLoopGroupProvider: .singleton, configuration: withReadTimeout)
        rawOnDefaults = HTTPClient(eventLoopGroupProvider: .singleton)
        self.transport = transport
    }

    /// A client like ``authKit`` (over ``transport``) whose container `configure` also sets up
    /// before the client is made, such as with a SQLite credential store; signed in with ``token``.
    public func makeAuthKit(_ configure: (AuthContainer) async throws -> Void) async throws -> AccountClient<BearerStrategy> {
        let transport = transport
        return try await Self.signedIn(url: url) { container in
            container.useHTTPClient(transport)
            try await configure(container)
        }
    }

    /// A client of a container that `configure` sets up, signed in with ``token``.
    private static func signedIn(url: URL, _ configure: (AuthContainer) async throws -> Void) async throws -> AccountClient<BearerStrategy> {
        let container = AuthContainer()
        try await configure(container)
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: url)) { _ in
            throw AuthError.reauthenticationRequired(nil, reason: "the benchmark token does not renew")
        }
        let client = container.makeClient(for: AccountKey(namespace: "e2e", account: "alice"), strategy: strategy)
        try await client.signIn(BearerTokenSet(accessToken: Self.token, expiresAt: Date().addingTimeInterval(86_400)))
        return client
    }

    /// One request by raw AsyncHTTPClient; the body's length.
    public func sendRaw() async throws -> Int {
        try await Self.send(url, through: raw)
    }

    /// One request by raw AsyncHTTPClient over ``rawUnbounded``; the body's length.
    public func sendRawUnbounded() async throws -> Int {
        try await Self.send(url, through: rawUnbounded)
    }

    /// One request by raw AsyncHTTPClient with a read timeout; the body's length.
    public func sendRawWithReadTimeout() async throws -> Int {
        try await Self.send(url, through: rawWithReadTimeout)
    }

    /// One request by raw AsyncHTTPClient on its default configuration; the body's length.
    public func sendRawOnDefaults() async throws -> Int {
        try await Self.send(url, through: rawOnDefaults)
    }

    /// One request by raw AsyncHTTPClient over `raw`, its body made `Data`; the body's length.
    public func sendRawAsData() async throws -> Int {
        Data(buffer: try await Self.body(url, through: raw)).count
    }

    private static func send(_ url: URL, through client: HTTPClient) async throws -> Int {
        try await body(url, through: client).readableBytes
    }

    /// The body of a 200 answer to one request by raw AsyncHTTPClient. Inlined into its callers,
    /// so that raw's requests take no async frame of this suite's own.
    @inline(__always)
    private static func body(_ url: URL, through client: HTTPClient) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw EndToEndError(status: Int(response.status.code)) }
        return body
    }

    /// One request by AsyncHTTPClient's delegate API (`execute(request:delegate:)`) over `raw`,
    /// the whole response collected on the event loop and awaited once; the body's length.
    ///
    /// A reference, not a client to compare AuthKit with: its 30-second deadline bounds the whole
    /// request, not the wait for the head. The async API above (`execute(_:timeout:)`) starts an
    /// unstructured `Task` per request (AsyncHTTPClient's `TransactionCancelHandler`), a job and
    /// often a thread woken; this API does not, and costs more instructions.
    public func sendRawDelegate() async throws -> Int {
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer \(Self.token)")
        let request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        let task = raw.execute(request: request, delegate: DelegateCollector(limit: 1 << 20), deadline: .now() + .seconds(30))
        let response = try await withTaskCancellationHandler { try await task.get() } onCancel: { task.cancel() }
        guard response.head.status == .ok else { throw EndToEndError(status: Int(response.head.status.code)) }
        return response.body.readableBytes
    }

    /// One request through the AuthKit client; the body's length.
    public func sendAuthKit() async throws -> Int {
        try await Self.send(url, through: authKit)
    }

    /// One request through the AuthKit client without a bound on the body; the body's length.
    public func sendAuthKitUnbounded() async throws -> Int {
        try await Self.send(url, through: authKitUnbounded)
    }

    /// One request through `client`, one of ``makeAuthKit(_:)``; the body's length.
    public func sendAuthKit(through client: AccountClient<BearerStrategy>) async throws -> Int {
        try await Self.send(url, through: client)
    }

    private static func send(_ url: URL, through client: AccountClient<BearerStrategy>) async throws -> Int {
        let response = try await client.send(.get, url)
        guard response.status == .ok else { throw EndToEndError(status: response.status.code) }
        return response.body.count
    }

    /// One request through `HTTPClientTransport` alone (no middleware), the token put on by hand.
    public func sendTransport() async throws -> Int {
        let request = try AuthRequest(method: .get, url: url, headerFields: [.authorization: "Bearer \(Self.token)"])
        let response = try await transport.send(request)
        guard response.status == .ok else { throw EndToEndError(status: response.status.code) }
        return response.body.count
    }

    /// One request through `HTTPClientTransport` alone, the same request every time (made once,
    /// the token on it): the transport's work on a request and its response, and nothing else
    /// of AuthKit's; the body's length.
    public func sendTransportOnly() async throws -> Int {
        let response = try await transport.send(madeRequest)
        guard response.status == .ok else { throw EndToEndError(status: response.status.code) }
        return response.body.count
    }

    public func shutdown() async throws {
        // A transport shuts down only a client of its own, which may be `raw`: each client is
        // shut down once, every one even when another's shutdown fails; the first failure is
        // thrown.
        var clients = [rawWithReadTimeout, rawOnDefaults]
        for client in [raw, rawUnbounded] where client !== transport.httpClient && !clients.contains(where: { $0 === client }) {
            clients.append(client)
        }
        var failure: (any Error)?
        for shutdown in [transport.shutdown] + clients.map { $0.shutdown as () async throws -> Void } {
            do { try await shutdown() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}

/// A request that did not get its 200.
public struct EndToEndError: Error, CustomStringConvertible {
    public let status: Int
    public var description: String { "the server answered \(status)" }
}
