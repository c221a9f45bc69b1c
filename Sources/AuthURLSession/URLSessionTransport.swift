// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import HTTPTypes

/// A ``/AuthCore/Transport`` over `URLSession` (FoundationNetworking on Linux), for apps that already use
/// it: redirects are handed back to the pipeline (the redirect middleware follows them, with
/// credential stripping) rather than followed, a cancelled task cancels its request, and failures
/// are AuthKit's typed errors.
///
/// ```swift
/// let container = AuthContainer()
/// container.useURLSession(URLSessionTransport())
/// ```
///
/// The target on the wire is byte for byte the request's `path` (what a signer signed), or the
/// request is not sent. What URLSession cannot send as written is refused: a path with `.` or
/// `..` segments (URLSession removes them), and bytes a URL may not hold raw (`"`, `<`, `>`, `[`,
/// `\`, `]`, `^`, the backtick, `{`, `|`, `}`, a `%` not followed by two hex digits), which
/// Foundation's `URL` percent-encodes. A repeated request field goes out as one line, its
/// values joined with `, ` (what an RFC 9421 signature of it covers). Repeated response fields
/// arrive joined into one (`HTTPURLResponse` keeps one value per name), so several `Set-Cookie`
/// fields reach the pipeline as one: use AsyncHTTPClient's transport with the cookie jar. A body
/// that came compressed arrives decoded, without its `Content-Encoding` and `Content-Length`
/// fields.
public final class URLSessionTransport: Transport {
    /// The session requests go through (its delegate refuses redirects and reads bodies up to
    /// their limit).
    public let session: URLSession
    private let delegate: SessionDelegate
    /// How long a request may take, its response's head and whole body, when its
    /// ``/AuthCore/RequestOptions/timeout`` does not say.
    public let timeout: Duration
    /// The largest response body accepted. A longer body fails with `AuthError`
    /// `.responseTooLarge` as soon as its bytes pass the limit (or at once, when its
    /// `Content-Length` does), never read whole.
    public let maxResponseBytes: Int

    /// A transport over a session of its own, made from a copy of `configuration` (ephemeral by
    /// default) without URLSession's cookie store, cache and credential storage: cookies and
    /// credentials are the pipeline's, and URLSession answers no authentication challenge (a
    /// `401` comes back as it is, never sent again with a stored password).
    /// - Parameters:
    ///   - configuration: The session configuration; the caller's object is left as it is.
    ///   - timeout: How long a request may take, head and whole body.
    ///   - maxResponseBytes: The largest response body accepted.
    public init(configuration: URLSessionConfiguration = .ephemeral, timeout: Duration = .seconds(60), maxResponseBytes: Int = 16 << 20) {
        // `copy()` of a URLSessionConfiguration is one (NSCopying types it `Any`); the caller's
        // own object is changed only should it ever not be.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCredentialStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        let delegate = SessionDelegate()
        self.delegate = delegate
        #if canImport(FoundationNetworking)
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: InlineDeliveryQueue())
        #else
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        #endif
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// A transport that checks public-key pins: refused, on every platform this version supports.
    ///
    /// FoundationNetworking (Linux) verifies the server's chain inside libcurl and gives a
    /// delegate neither a server-trust challenge nor the server's certificate, so the pins cannot
    /// be checked there; a transport that ignored them would send credentials to any server with a
    /// valid chain. On Apple platforms the check (a server-trust challenge, evaluated first, then
    /// the leaf's key) is not built yet: it could not be tested without an Apple machine. Use
    /// AuthHTTPClient's `HTTPClientTransport` with `TransportTLS` for pinning.
    /// - Parameters:
    ///   - configuration: The session configuration.
    ///   - timeout: How long a request may take.
    ///   - maxResponseBytes: The largest response body accepted.
    ///   - pinning: The pins that would be checked.
    /// - Throws: `AuthError` code `.misconfigured`, always.
    public convenience init(configuration: URLSessionConfiguration = .ephemeral, timeout: Duration = .seconds(60), maxResponseBytes: Int = 16 << 20, pinning: CertificatePinning) throws(AuthError) {
        #if canImport(FoundationNetworking)
        let reason = "FoundationNetworking does not let a URLSession delegate see the server's certificate"
        #else
        let reason = "this version of AuthURLSession does not check pins on Apple platforms yet"
        #endif
        throw AuthError(code: .misconfigured, message: "URLSessionTransport cannot check the pins of \(pinning.entries.map(\.pattern).joined(separator: ", ")): \(reason); use AuthHTTPClient's HTTPClientTransport with TransportTLS, or no pinning")
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request and reads the whole response.
    /// - Throws: `AuthError` `.invalidRequest` when the request's target is malformed or would
    ///   not go on the wire as it is written (`.` or `..` segments, bytes Foundation's `URL`
    ///   percent-encodes); `.timeout` when the response, head and whole body, did not come
    ///   within the request's ``/AuthCore/RequestOptions/timeout`` or else ``timeout`` (the data
    ///   task is then cancelled); `.transport` when the request cannot be sent or the response
    ///   read; `.responseTooLarge` when the body is larger than
    ///   ``maxResponseBytes`` or the request's ``/AuthCore/RequestOptions/maxResponseBytes``
    ///   (the body is read only up to the limit); `AuthError` code
    ///   `.certificateBindingUnmet` when the request carries a certificate-bound bearer token
    ///   (RFC 8705 `cnf.x5t#S256`), which this transport cannot present a certificate for: nothing
    ///   is sent; `CancellationError` when the task is cancelled.
    public func send(_ request: AuthRequest) async throws -> AuthResponse {
        if let authorization = request.head.headerFields[.authorization], CertificateBinding.requiredThumbprint(authorization: authorization) != nil {
            throw AuthError(code: .certificateBindingUnmet, message: "the bearer token is bound to a client certificate (cnf.x5t#S256), and URLSessionTransport presents none: nothing was sent; use HTTPClientTransport with the certificate")
        }
        guard let url = URL(string: try request.urlForTransport()) else {
            throw AuthError.invalidRequest("the request's target is not a URL URLSession can send")
        }
        // What is sent is what was written (and signed), or nothing: a request sent with another
        // target would reach another resource, or carry a signature for a target not sent.
        let target = request.head.path ?? "/"
        // URLSession (libcurl on Linux) removes `.` and `..` segments.
        let path = target.prefix { $0 != "?" && $0 != "#" }
        guard !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) else {
            throw AuthError.invalidRequest("the path holds a . or .. segment, which URLSession would remove (sending the request to another resource): it is not sent")
        }
        // URLSession sends the URL as Foundation spells it.
        guard Self.targetSent(for: url) == target else {
            throw AuthError.invalidRequest(
                "URLSession would not send the request target as it is written (Foundation's URL re-encodes bytes a URL may not hold raw, such as [ | { or a % without two hex digits): percent-encode the target as it should go on the wire; the request is not sent"
            )
        }
        let limit = Self.waitable(request.options.timeout ?? timeout)
        var outgoing = URLRequest(url: url)
        outgoing.httpMethod = request.head.method.rawValue
        outgoing.timeoutInterval = Self.idleInterval(within: limit)
        for line in Self.fieldLines(of: request.headerFieldsForHTTP1) {
            outgoing.setValue(line.value, forHTTPHeaderField: line.name)
        }
        if !request.body.isEmpty || [.post, .put, .patch].contains(request.head.method) {
            outgoing.httpBody = request.body
        }
        let maxResponseBytes = min(maxResponseBytes, request.options.maxResponseBytes ?? .max)
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await receive(outgoing, upTo: maxResponseBytes, within: limit)
        } catch is ResponseBodyTooLarge {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError(code: .responseTooLarge, message: "\(request.head.method) \(request.origin?.description ?? "?"): the response body is larger than \(maxResponseBytes) bytes")
        } catch {
            if Task.isCancelled || (error as? URLError)?.code == .cancelled || error is CancellationError { throw CancellationError() }
            let origin = request.origin?.description ?? "?"
            if error is ExchangeTimedOut || (error as? URLError)?.code == .timedOut {
                throw AuthError(code: .timeout, message: "\(request.head.method) \(origin): no whole response within \(limit)")
            }
            throw AuthError.transport("\(request.head.method) \(origin) failed: \(Self.describe(error))", underlying: Self.cause(error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw AuthError.transport("\(request.head.method) \(request.origin?.description ?? "?"): the response is not HTTP")
        }
        return AuthResponse(head: HTTPResponse(status: .init(code: http.statusCode), headerFields: Self.fields(of: http)), body: data)
    }

    /// Runs a data task for `request` and collects its body (see ``receive(_:upTo:)``), all
    /// within `limit`: past it, the data task is cancelled.
    ///
    /// URLSession's own timer (`timeoutInterval`) measures only time without bytes: a server
    /// sending a byte every few seconds would hold the request for as long as it liked.
    /// - Throws: ``ExchangeTimedOut`` past `limit`, or what ``receive(_:upTo:)`` throws.
    private func receive(_ request: URLRequest, upTo maxBytes: Int, within limit: Duration) async throws -> (Data, URLResponse) {
        try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
            group.addTask { try await self.receive(request, upTo: maxBytes) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            // Cancelling the exchange cancels its data task.
            defer { group.cancelAll() }
            guard let first = try await group.next(), let received = first else { throw ExchangeTimedOut() }
            return received
        }
    }

    /// Runs a data task for `request` and collects its body, at most `limit` bytes: the task is
    /// cancelled as soon as the body passes the limit, so that no more than the limit (and one
    /// read's bytes) is held. Cancelling the calling task cancels the data task.
    /// - Throws: `ResponseBodyTooLarge`, or the data task's error.
    private func receive(_ request: URLRequest, upTo limit: Int) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        let collector = BodyCollector(limit: limit)
        delegate.register(collector, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                collector.wait(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// `limit`, at most about 31 years: a limit a clock can wait for, and whose whole seconds
    /// FoundationNetworking can count in milliseconds without overflowing.
    static func waitable(_ limit: Duration) -> Duration {
        min(limit, .seconds(1_000_000_000))
    }

    /// The `timeoutInterval` of a request whose exchange must end within `limit`: `limit` in
    /// whole seconds, rounded up, at least one. FoundationNetworking arms its timer with the
    /// whole seconds alone (0.3 s would time out at once); rounded up, it never fires before
    /// the transport's own deadline.
    static func idleInterval(within limit: Duration) -> TimeInterval {
        let (seconds, attoseconds) = limit.components
        return max(1, (Double(seconds) + Double(attoseconds) / 1e18).rounded(.up))
    }

    /// The header fields of `response`, as they describe the body handed over, which URLSession
    /// decoded: without the `Content-Encoding` and `Content-Length` of an encoded body.
    ///
    /// URLSession decodes a body in a content coding it knows and keeps the fields of the encoded
    /// one (FoundationNetworking has libcurl decode every coding it knows, and fail on any other).
    /// Kept, they would describe another body to a cache, a digest or a signature check.
    static func fields(of response: HTTPURLResponse) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String, let field = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: field, value: value))
        }
        if let coding = fields[.contentEncoding], coding.lowercased() != "identity" {
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        return fields
    }

    /// The target (path and query) of `url` as Foundation spells it, which URLSession sends.
    static func targetSent(for url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// The cause an ``AuthCore/AuthError`` keeps of a failed data task: a `URLError` with its
    /// code alone (`.unknown` for another error). The task's own error carries the request's URL
    /// in its user information (`NSErrorFailingURLStringKey`), which its description repeats,
    /// query and all; a query may hold a key, and an error is printed and logged.
    static func cause(_ error: any Error) -> URLError {
        URLError((error as? URLError)?.code ?? .unknown)
    }

    /// What went wrong, by the error's code (never by its text, which may repeat the URL).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return String(describing: type(of: error)) }
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .cannotFindHost, .dnsLookupFailed: return "the host name did not resolve"
        case .networkConnectionLost: return "the server closed the connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "TLS failed (URLError \(error.code.rawValue))"
        default: return "URLError \(error.code.rawValue)"
        }
    }
}

/// An exchange did not end within its transport's limit.
struct ExchangeTimedOut: Error {}
