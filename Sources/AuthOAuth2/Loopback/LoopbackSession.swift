// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOCore
import Synchronization

/// What a loopback listener's connections share: the port it bound, the `state` it waits for,
/// whether the redirect was taken, and the open connections.
final class LoopbackSession: Sendable {
    let path: String
    let page: String
    let connections: LoopbackConnections
    let redirects: AsyncStream<URL>
    private let continuation: AsyncStream<URL>.Continuation
    private let bound = Atomic<Int>(0)
    private let progress = Mutex<Progress>(.notWaiting)

    private enum Progress {
        /// No wait began: nothing is read yet.
        case notWaiting
        /// Waiting for the redirect that carries `state`.
        case waiting(state: String)
        /// A request carried the state; its page is being written.
        case taken
        /// The wait ended.
        case ended
    }

    /// What a request to the listener's path is.
    enum Verdict {
        /// The redirect: answer with the page, then ``deliver(_:)`` it.
        case redirect
        /// Not this sign-in's redirect, or one came already.
        case notTheRedirect
    }

    init(path: String, page: String, maxConnections: Int) {
        self.path = path
        self.page = page
        self.connections = LoopbackConnections(limit: maxConnections)
        (redirects, continuation) = AsyncStream.makeStream(of: URL.self, bufferingPolicy: .bufferingOldest(1))
    }

    /// The port the listener bound.
    var port: Int {
        get { bound.load(ordering: .acquiring) }
        set { bound.store(newValue, ordering: .releasing) }
    }

    /// The one `Host` field value a request may carry: the redirect URI's.
    var expectedHost: String { "127.0.0.1:\(port)" }

    /// Starts waiting for `state`; false when a wait began before.
    func begin(state: String) -> Bool {
        progress.withLock { progress in
            guard case .notWaiting = progress else { return false }
            progress = .waiting(state: state)
            return true
        }
    }

    /// Whether `target` (a request target to the path) is the awaited redirect; the first one
    /// that is takes the wait, and later ones are not.
    func judge(_ target: String) -> Verdict {
        let received = URL(string: "http://\(expectedHost)\(target)").flatMap { AuthorizationResponse(redirect: $0).state }
        return progress.withLock { progress in
            guard case .waiting(let state) = progress, let received, Self.same(received, state) else { return .notTheRedirect }
            progress = .taken
            return .redirect
        }
    }

    /// Hands the redirect `target` to the wait, once its page was written.
    func deliver(_ target: String) {
        if let url = URL(string: "http://\(expectedHost)\(target)") { continuation.yield(url) }
        continuation.finish()
    }

    /// Ends the wait: no request is the redirect any more, every connection is closed.
    func end() {
        progress.withLock { $0 = .ended }
        continuation.finish()
        connections.closeAll()
    }

    /// Compares two states in time that does not depend on where they differ.
    private static func same(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The connections a loopback listener holds open, at most `limit` at once.
final class LoopbackConnections: Sendable {
    let limit: Int
    private let state = Mutex<(open: [ObjectIdentifier: any Channel], closed: Bool)>(([:], false))

    init(limit: Int) {
        self.limit = limit
    }

    /// How many are open.
    var count: Int { state.withLock { $0.open.count } }

    /// Records `channel`; false when the listener holds `limit` already or has ended.
    func admit(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.closed, state.open.count < limit else { return false }
            state.open[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    /// Forgets a closed connection.
    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every connection; none is admitted after.
    func closeAll() {
        let open = state.withLock { state in
            state.closed = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }
}
