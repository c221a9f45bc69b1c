// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Receives the redirect that ends a browser sign-in of a command-line tool (RFC 8252 §7.3): an
/// HTTP listener on 127.0.0.1 and a port the system chooses, for exactly one redirect to its
/// path, the one that carries the pending authorization's `state`.
///
/// ``bind(path:page:maxConnections:connectionTimeout:)`` takes the port, so that the redirect
/// URI is known before the authorization starts; the listener reads no request until
/// ``waitForRedirect(of:timeout:)`` gives it the ``PendingAuthorization`` whose `state` it
/// waits for (connections that come earlier wait in the system's queue). So no request is
/// ever answered without the state to check it against. Then:
/// - a request whose `Host` is not exactly `127.0.0.1:<port>` gets `421 Misdirected Request`
///   (a web page that had a name of its own resolve to 127.0.0.1, DNS rebinding); `localhost`
///   is refused too, since the redirect URI names 127.0.0.1;
/// - a request to the path without the state, or with another one (a stray local request, a
///   page probing localhost) gets `400`, anything else `404`; neither ends the wait;
/// - every answer says `Connection: close` and its connection is closed once it is written; a
///   connection that brings no complete request head within `connectionTimeout` is closed; at
///   most `maxConnections` are open at once, and one more is closed as it is accepted;
/// - once the wait ends (the redirect came, it timed out, ``close()``), the listener closes
///   every connection it holds and stops listening.
///
/// ```swift
/// let listener = try await LoopbackRedirectListener.bind()
/// let pending = try await app.startAuthorization(redirectURI: listener.redirectURI, scopes: ["openid"])
/// print("Open \(pending.url) in your browser")
/// let redirect = try await listener.waitForRedirect(of: pending)
/// let tokens = try await app.completeAuthorization(pending, redirect: redirect)
/// ```
public final class LoopbackRedirectListener: Sendable {
    /// `http://127.0.0.1:<port><path>`: the redirect URI to start the authorization with.
    public let redirectURI: URL
    private let channel: any Channel
    private let session: LoopbackSession

    private init(redirectURI: URL, channel: any Channel, session: LoopbackSession) {
        self.redirectURI = redirectURI
        self.channel = channel
        self.session = session
    }

    deinit {
        session.end()
        channel.close(promise: nil)
    }

    /// Takes a port on 127.0.0.1 for the redirect; no request is read before
    /// ``waitForRedirect(of:timeout:)``.
    /// - Parameters:
    ///   - path: The redirect URI's path.
    ///   - page: The HTML the browser shows once the redirect arrived.
    ///   - maxConnections: How many connections may be open at once; one more is closed as it
    ///     is accepted.
    ///   - connectionTimeout: How long a connection may take to bring a complete request head
    ///     before it is closed.
    /// - Throws: `AuthError` `.transport` when no port could be bound; `.invalidRequest` when
    ///   `path` does not make a URL or `maxConnections` is less than 1.
    public static func bind(
        path: String = "/callback", page: String = LoopbackRedirectListener.defaultPage,
        maxConnections: Int = 16, connectionTimeout: Duration = .seconds(10)
    ) async throws -> LoopbackRedirectListener {
        let path = path.hasPrefix("/") ? path : "/" + path
        guard maxConnections > 0 else {
            throw AuthError.invalidRequest("a loopback listener needs room for at least one connection; maxConnections is \(maxConnections)")
        }
        guard URL(string: "http://127.0.0.1:1\(path)") != nil else {
            throw AuthError.invalidRequest("the redirect path \(path) does not make a URL")
        }
        let session = LoopbackSession(path: path, page: page, maxConnections: maxConnections)
        let timeout = TimeAmount.nanoseconds(Int64(connectionTimeout / .nanoseconds(1)))
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: Int32(clamping: maxConnections))
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                // Nothing is accepted before the wait knows the state (`waitForRedirect(of:timeout:)`).
                .serverChannelOption(.autoRead, value: false)
                .childChannelInitializer { child in
                    guard session.connections.admit(child) else {
                        // The bootstrap closes a connection whose initializer failed.
                        return child.eventLoop.makeFailedFuture(LoopbackConnectionRefused())
                    }
                    let deadline = child.eventLoop.scheduleTask(in: timeout) { child.close(promise: nil) }
                    child.closeFuture.whenComplete { _ in
                        deadline.cancel()
                        session.connections.remove(child)
                    }
                    return child.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                        try child.pipeline.syncOperations.addHandler(LoopbackRequestHandler(session: session))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        } catch {
            throw AuthError.transport("could not listen on 127.0.0.1 for the sign-in's redirect: \(error)", underlying: error)
        }
        let port = channel.localAddress?.port ?? 0
        session.port = port
        guard let uri = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            try? await channel.close()
            throw AuthError.invalidRequest("the redirect path \(path) does not make a URL")
        }
        return LoopbackRedirectListener(redirectURI: uri, channel: channel, session: session)
    }

    /// Answers requests until the redirect of `pending` arrives, then closes every connection
    /// and stops listening. A listener waits once.
    /// - Parameters:
    ///   - pending: The authorization started with this listener's ``redirectURI``; the
    ///     redirect must carry its `state`.
    ///   - timeout: How long the user has to finish signing in.
    /// - Returns: The full redirect URL, for ``OAuth2Client/completeAuthorization(_:redirect:)``.
    /// - Throws: `AuthError` `.timeout` when no redirect came in time; `.authorizationFailed`
    ///   when ``close()`` ended the wait; `.invalidRequest` when `pending` redirects elsewhere
    ///   or the listener already waited; `.transport` when it could not start reading;
    ///   `CancellationError`.
    public func waitForRedirect(of pending: PendingAuthorization, timeout: Duration = .seconds(300)) async throws -> URL {
        try await wait(for: pending.redirectURI, state: pending.state, what: "authorization", timeout: timeout)
    }

    /// Answers requests until the redirect after the logout `pending` arrives (OpenID Connect
    /// RP-Initiated Logout), then closes every connection and stops listening; the same rules
    /// as for a sign-in's redirect (``waitForRedirect(of:timeout:)``).
    /// - Parameters:
    ///   - pending: The logout started with this listener's ``redirectURI`` as its
    ///     `post_logout_redirect_uri`; the redirect must carry its `state`.
    ///   - timeout: How long the user has to finish.
    /// - Returns: The full redirect URL, for ``OAuth2Client/completeLogout(_:redirect:)``.
    /// - Throws: As for a sign-in's redirect; `.invalidRequest` also for a logout that asked
    ///   for no redirect.
    public func waitForLogoutRedirect(of pending: PendingLogout, timeout: Duration = .seconds(300)) async throws -> URL {
        guard let target = pending.postLogoutRedirectURI, let state = pending.state else {
            throw AuthError.invalidRequest("the logout asked for no post_logout_redirect_uri: there is no redirect to wait for")
        }
        return try await wait(for: target, state: state, what: "logout", timeout: timeout)
    }

    private func wait(for target: URL, state: String, what: String, timeout: Duration) async throws -> URL {
        guard target.absoluteString == redirectURI.absoluteString else {
            throw AuthError.invalidRequest(
                "the pending \(what) redirects to \(target.absoluteString), not to this listener's \(redirectURI.absoluteString): start it with the listener's redirectURI"
            )
        }
        guard session.begin(state: state) else {
            throw AuthError.invalidRequest("this loopback listener already waited for a redirect; bind a new one for a new authorization")
        }
        defer { stop() }
        do {
            try await channel.setOption(ChannelOptions.autoRead, value: true).get()
        } catch {
            throw AuthError.transport("could not accept connections on \(redirectURI.absoluteString): \(error)", underlying: error)
        }
        let redirects = session.redirects
        let outcome = try await withThrowingTaskGroup(of: WaitOutcome.self) { group in
            group.addTask {
                for await url in redirects { return .redirect(url) }
                return .closed
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return .timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .closed
        }
        try Task.checkCancellation()
        switch outcome {
        case .redirect(let url): return url
        case .timedOut:
            throw AuthError(code: .timeout, message: "no sign-in redirect arrived at \(redirectURI.absoluteString) within \(timeout)")
        case .closed:
            throw AuthError(code: .authorizationFailed, message: "the loopback listener at \(redirectURI.absoluteString) was closed before the sign-in's redirect arrived")
        }
    }

    /// Ends a wait in progress, closes every connection and stops listening.
    public func close() async {
        session.end()
        try? await channel.close()
    }

    /// The page shown once the redirect arrived.
    public static let defaultPage = """
        <!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head>\
        <body><p>You can close this window and return to the application.</p></body></html>
        """

    /// The page shown once the redirect after a logout arrived.
    public static let loggedOutPage = """
        <!doctype html><html><head><meta charset="utf-8"><title>Signed out</title></head>\
        <body><p>You are signed out. You can close this window.</p></body></html>
        """

    /// How many connections are open now.
    var openConnections: Int { session.connections.count }

    /// Ends the session and closes the listening socket.
    private func stop() {
        session.end()
        channel.close(promise: nil)
    }

    private enum WaitOutcome: Sendable {
        case redirect(URL)
        case timedOut
        case closed
    }
}

/// Why a connection over the listener's limit was closed at accept.
struct LoopbackConnectionRefused: Error {}
