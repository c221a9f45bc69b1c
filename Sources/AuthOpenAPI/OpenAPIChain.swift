// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The rest of a generated client's chain (its `next`) while one call of
/// ``AuthOpenAPIMiddleware`` runs.
///
/// `next` is not escaping, so it is lent (`withoutActuallyEscaping`) for the call and must be
/// gone when the call returns. Calls of it are counted: ``close()`` stops new ones and waits for
/// those under way (a middleware may have called `next` from a task of its own), and a task that
/// outlives the call (a renewal started during it inherits the task-local value) finds the chain
/// closed, never `next`.
final class OpenAPIChain: Sendable {
    typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

    private struct State {
        var next: Next?
        var calls = 0
        var drained: CheckedContinuation<Void, Never>?
    }

    private let state: Mutex<State>
    /// The client's server URL.
    let base: OpenAPIBase
    let maxResponseBytes: Int

    init(_ next: @escaping Next, base: OpenAPIBase, maxResponseBytes: Int) {
        state = Mutex(State(next: next))
        self.base = base
        self.maxResponseBytes = maxResponseBytes
    }

    /// Sends through `next`; an error of the rest of the chain becomes `AuthError.transport`
    /// (so AuthKit's retry middleware may send again) over an ``OpenAPIChainFailure``, never the
    /// generated client's `ClientError` itself, whose description holds the operation's input;
    /// cancellation stays `CancellationError`.
    nonisolated(nonsending) func forward(_ request: HTTPRequest, _ body: HTTPBody?, _ baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        guard let next = begin() else { throw Self.closed }
        defer { end() }
        // `next` is released when this `do` ends, before `end()` (deferred to the function's
        // end): nothing here holds it once the call is counted as ended.
        do {
            return try await Self.call(consume next, request, body, baseURL)
        } catch let error as ClientError {
            throw Self.authError(error.underlyingError)
        } catch {
            throw Self.authError(error)
        }
    }

    /// Stops calls of `next`; true when none is under way (then nothing is left to wait for).
    private func closeIfIdle() -> Bool {
        state.withLock { state in
            state.next = nil
            return state.calls == 0
        }
    }

    /// Stops calls of `next` and waits for those under way.
    nonisolated(nonsending) func close() async {
        guard !closeIfIdle() else { return }
        await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                state.next = nil
                guard state.calls > 0 else { return false }
                state.drained = drained
                return true
            }
            if !waits { drained.resume() }
        }
    }

    private static let closed = AuthError.invalidRequest("AuthOpenAPIMiddleware's pipeline sent a request after the middleware's call had returned")

    private func begin() -> Next? {
        state.withLock { state in
            guard let next = state.next else { return nil }
            state.calls += 1
            return next
        }
    }

    private func end() {
        let drained = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.calls -= 1
            guard state.calls == 0, let drained = state.drained else { return nil }
            state.drained = nil
            return drained
        }
        drained?.resume()
    }

    /// Calls `next`, which is released when this returns.
    private nonisolated(nonsending) static func call(_ next: Next, _ request: HTTPRequest, _ body: HTTPBody?, _ baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        try await next(request, body, baseURL)
    }

    /// An error of the rest of the chain as AuthKit's: `CancellationError` when the task was
    /// cancelled (a transport reports that its own way, inside a `ClientError`), an `AuthError`
    /// as it is, anything else as `.transport` over an ``OpenAPIChainFailure``.
    static func authError(_ error: any Error) -> any Error {
        OpenAPIChainFailure.authError(error, from: "the OpenAPI transport")
    }
}
