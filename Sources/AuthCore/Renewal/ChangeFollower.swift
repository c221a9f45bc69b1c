// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Follows a store's change feed for the sessions of one registry: on a change, the sessions it
/// concerns re-read the store (``CredentialChange/unknown``: all of them).
///
/// The registry and every session it made keep the follower; it keeps the sessions weakly, so
/// it follows for as long as a client of the account is in use, even after the container that
/// made it is gone, and stops (ending its subscription) when nothing uses it any more.
final class ChangeFollower: Sendable {
    private struct Entry: @unchecked Sendable {  // a weak reference to a Sendable actor
        weak var session: (any StoreReconciling)?
    }

    private let sessions = Mutex<[AccountKey: Entry]>([:])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ changes: AsyncStream<CredentialChange>) {
        let following = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                self.apply(change)
            }
        }
        task.withLock { $0 = following }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Follows changes for `session` (replacing a previous session of its account).
    func follow(_ session: any StoreReconciling) {
        sessions.withLock { $0[session.account] = Entry(session: session) }
    }

    /// Has the sessions a change concerns re-read the store, each in a task of its own (a session
    /// folds the changes that arrive during its read into one more read), so that a slow store
    /// does not hold back the feed.
    private func apply(_ change: CredentialChange) {
        let concerned: [any StoreReconciling] = sessions.withLock { sessions in
            switch change {
            case .account(let account):
                return [sessions[account]?.session].compactMap { $0 }
            case .unknown:
                sessions = sessions.filter { $0.value.session != nil }
                return sessions.values.compactMap(\.session)
            }
        }
        for session in concerned {
            Task { await session.reconcileWithStore() }
        }
    }
}
