// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

extension MFAServerState {
    /// One registry entry: the MFA state of a live ``ServerState``.
    private struct Entry: Sendable {
        /// Held weakly so that a stopped and released server releases its MFA state too.
        weak var owner: ServerState?
        let mfa: MFAServerState
    }

    /// The MFA state of every live server, by the identity of its ``ServerState``.
    ///
    /// The login policy is a value chosen in the configuration before any server exists, and
    /// the MFA routes are added at every start; both find the one state of their server here.
    private static let registry = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The MFA state of the server whose shared state is `environment.state`, created on first use.
    ///
    /// The same instance is returned for the server's whole life, also across a stop and a new
    /// start, as its users are.
    static func shared(for environment: RouteEnvironment) -> MFAServerState {
        let state = environment.state
        let clock = environment.clock
        return registry.withLock { entries in
            entries = entries.filter { $0.value.owner != nil }
            let key = ObjectIdentifier(state)
            if let entry = entries[key], entry.owner === state { return entry.mfa }
            let mfa = MFAServerState(clock: clock)
            entries[key] = Entry(owner: state, mfa: mfa)
            return mfa
        }
    }
}
