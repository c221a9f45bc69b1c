// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The delegate of a ``URLSessionTransport``'s session: hands a redirect back as the response
/// instead of following it, answers no authentication challenge but the server's trust, and
/// gives each data task's bytes to the ``BodyCollector`` of its request, which stops the task
/// once the body is over its limit.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: its only state is the Mutex; NSObject makes the class non-final for Sendable.
    private let collectors = Mutex<[Int: BodyCollector]>([:])

    /// Routes `task`'s events to `collector` until the task completes.
    func register(_ collector: BodyCollector, for task: URLSessionTask) {
        collectors.withLock { $0[task.taskIdentifier] = collector }
    }

    private func collector(of task: URLSessionTask) -> BodyCollector? {
        collectors.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// Answers no challenge but the server's trust, which gets the platform's own evaluation: a
    /// `401`'s (Basic, Digest) goes back to the pipeline as the response, whose strategies decide
    /// which origin gets which credential; the request is never sent again with a credential of
    /// URLSession's.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        #if canImport(FoundationNetworking)
        // FoundationNetworking raises no server-trust challenge (libcurl checks the chain), and
        // cancels the task on a refusal; its default handling completes the task with the `401`
        // when no credential is proposed, and only a credential storage proposes one (the
        // transport's session has none).
        completionHandler(.performDefaultHandling, nil)
        #else
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            completionHandler(.performDefaultHandling, nil)
        } else {
            completionHandler(.rejectProtectionSpace, nil)
        }
        #endif
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let collector = collector(of: dataTask) else { return completionHandler(.cancel) }
        collector.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let collector = collector(of: dataTask), collector.append(data) else {
            // Not on the calling thread: FoundationNetworking's `cancel()` waits for the session's
            // work queue, which delivers this call (``InlineDeliveryQueue``).
            DispatchQueue.global().async { dataTask.cancel() }
            return
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let collector = collectors.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        collector?.complete(error)
    }
}

#if canImport(FoundationNetworking)
/// The delegate queue of a transport's session on Linux: runs each delegate call at once, on the
/// thread that hands it over. FoundationNetworking hands every libcurl read to the delegate queue
/// and reads on without waiting; with a queue of its own, deliveries that lag behind (a loaded
/// machine) pile up in memory, whatever the body limit. Run inline, libcurl reads no further
/// until the delegate took the bytes, so a body over its limit is stopped near the limit. The
/// delegate's calls are short and never wait on the session.
final class InlineDeliveryQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: no state of its own.
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif

/// The response of one data task and its body, at most `limit` bytes, handed to the caller once:
/// when the task completes, or as soon as the body is over the limit (the task is then
/// cancelled, and what it had read is dropped). A `Content-Length` over the limit is not refused
/// before the bytes come: a `HEAD` request's or a `304`'s announces a body that never comes.
final class BodyCollector: Sendable {
    typealias Outcome = Result<(Data, URLResponse), any Error>
    let limit: Int
    private let state = Mutex<State>(State())

    private struct State {
        var response: URLResponse?
        var body = Data()
        var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
        /// Set once, by the first of completion, a body over the limit, or a refused head.
        var outcome: Outcome?
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Sets the continuation to resume, and resumes it at once when the task already finished.
    func wait(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        let outcome = state.withLock { state -> Outcome? in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            return outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    /// Records the response head.
    func receive(_ response: URLResponse) {
        state.withLock { $0.response = response }
    }

    /// Adds bytes of the body; false when the body is over the limit (the caller then cancels
    /// the task).
    func append(_ data: Data) -> Bool {
        let fits = state.withLock { state -> Bool in
            guard state.outcome == nil else { return false }
            guard data.count <= limit - state.body.count else { return false }
            state.body.append(data)
            return true
        }
        if !fits { finish(.failure(ResponseBodyTooLarge())) }
        return fits
    }

    /// The task completed, with `error` or not.
    func complete(_ error: (any Error)?) {
        if let error { return finish(.failure(error)) }
        let outcome: Outcome = state.withLock { state in
            guard let response = state.response else { return .failure(URLError(.badServerResponse)) }
            return .success((state.body, response))
        }
        finish(outcome)
    }

    /// Resumes the continuation with `outcome`, the first time only; later outcomes are dropped.
    private func finish(_ outcome: Outcome) {
        let continuation = state.withLock { state -> CheckedContinuation<(Data, URLResponse), any Error>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            state.body = Data()
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }
}

/// A body went over its collector's limit.
struct ResponseBodyTooLarge: Error {}
