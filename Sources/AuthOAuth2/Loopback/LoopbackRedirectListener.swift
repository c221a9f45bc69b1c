import AuthCore
public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// Receives the redirect that ends a browser sign-in of a command-line tool (RFC 8252 §7.3): an
/// HTTP listener on 127.0.0.1 and a port the system chooses, for exactly one redirect to its
/// path. It answers the browser with a short page, and stops listening once the redirect came,
/// the wait timed out, or ``close()`` was called. Once ``expect(state:)`` named the
/// authorization's `state`, a request to the path without it (a stray local request, a page
/// probing localhost) gets a 400 and does not end the wait.
///
/// ```swift
/// let listener = try await LoopbackRedirectListener.start()
/// let pending = try await app.startAuthorization(redirectURI: listener.redirectURI, scopes: ["openid"])
/// print("Open \(pending.url) in your browser")
/// let tokens = try await app.completeAuthorization(pending, redirect: try await listener.waitForRedirect())
/// ```
public final class LoopbackRedirectListener: Sendable {
    /// `http://127.0.0.1:<port><path>`: the redirect URI to register the authorization with.
    public let redirectURI: URL
    private let channel: any Channel
    private let redirects: AsyncStream<URL>
    private let expectedState: ExpectedState

    private init(redirectURI: URL, channel: any Channel, redirects: AsyncStream<URL>, expectedState: ExpectedState) {
        self.redirectURI = redirectURI
        self.channel = channel
        self.redirects = redirects
        self.expectedState = expectedState
    }

    /// Accepts only a redirect that carries `state` (the pending authorization's).
    public func expect(state: String) {
        expectedState.value.withLock { $0 = state }
    }

    /// Starts listening.
    /// - Parameters:
    ///   - path: The redirect URI's path.
    ///   - page: The HTML the browser shows once the redirect arrived.
    /// - Throws: `AuthError` `.transport` when no port could be bound.
    public static func start(path: String = "/callback", page: String = LoopbackRedirectListener.defaultPage) async throws -> LoopbackRedirectListener {
        let path = path.hasPrefix("/") ? path : "/" + path
        let (redirects, continuation) = AsyncStream.makeStream(of: URL.self, bufferingPolicy: .bufferingOldest(1))
        let delivered = Atomic(false)
        let port = Atomic(0)
        let expectedState = ExpectedState()
        let deliver: @Sendable (String) -> Bool = { target in
            guard let url = URL(string: "http://127.0.0.1:\(port.load(ordering: .relaxed))\(target)") else { return false }
            if let state = expectedState.value.withLock({ $0 }), AuthorizationResponse(redirect: url).state != state { return false }
            guard delivered.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return false }
            continuation.yield(url)
            continuation.finish()
            return true
        }
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 8)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { child in
                    child.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                        try child.pipeline.syncOperations.addHandler(RedirectHandler(path: path, page: page, deliver: deliver))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        } catch {
            throw AuthError.transport("could not listen on 127.0.0.1 for the sign-in's redirect: \(error)", underlying: error)
        }
        let bound = channel.localAddress?.port ?? 0
        port.store(bound, ordering: .relaxed)
        guard let uri = URL(string: "http://127.0.0.1:\(bound)\(path)") else {
            try? await channel.close()
            throw AuthError.invalidRequest("the redirect path \(path) does not make a URL")
        }
        return LoopbackRedirectListener(redirectURI: uri, channel: channel, redirects: redirects, expectedState: expectedState)
    }

    /// Waits for the redirect, then stops listening.
    /// - Parameter timeout: How long the user has to finish signing in.
    /// - Returns: The full redirect URL, for ``OAuth2Client/completeAuthorization(_:redirect:)``.
    /// - Throws: `AuthError` `.timeout` when no redirect came in time; `CancellationError`.
    public func waitForRedirect(timeout: Duration = .seconds(300)) async throws -> URL {
        defer { channel.close(promise: nil) }
        let redirects = self.redirects
        return try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask {
                for await url in redirects { return url }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let url = first else {
                try Task.checkCancellation()
                throw AuthError(code: .timeout, message: "no sign-in redirect arrived at \(redirectURI.absoluteString) within \(timeout)")
            }
            return url
        }
    }

    /// Stops listening without waiting.
    public func close() async {
        try? await channel.close()
    }

    /// The page shown once the redirect arrived.
    public static let defaultPage = """
        <!doctype html><html><head><meta charset="utf-8"><title>Signed in</title></head>\
        <body><p>You can close this window and return to the application.</p></body></html>
        """
}

/// The `state` a listener waits for, shared with its handler.
private final class ExpectedState: Sendable {
    let value = Mutex<String?>(nil)
}

/// Answers the one redirect to `path` with the page, a request to the path that is not it with
/// 400, anything else with 404.
private final class RedirectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let path: String
    let page: String
    let deliver: @Sendable (String) -> Bool

    init(path: String, page: String, deliver: @escaping @Sendable (String) -> Bool) {
        self.path = path
        self.page = page
        self.deliver = deliver
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let requestPath = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let onPath = head.method == .GET && requestPath == path
        let isRedirect = onPath && deliver(head.uri)
        let body = isRedirect ? page : onPath ? "not the redirect of this sign-in" : "not found"
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: isRedirect ? "text/html; charset=utf-8" : "text/plain")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: isRedirect ? .ok : onPath ? .badRequest : .notFound, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
