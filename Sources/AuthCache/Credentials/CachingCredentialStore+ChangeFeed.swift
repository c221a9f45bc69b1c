// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension CachingCredentialStore: CredentialChangeFeed {
    /// The inner store's changes, when it has a change feed (``/AuthCore/CredentialChangeFeed``), each
    /// dropping the cached records it concerns before it is passed on (so a session that re-reads
    /// on it reads the inner store); a stream that ends at once otherwise.
    public func credentialChanges() -> AsyncStream<CredentialChange> {
        guard let feed = inner as? any CredentialChangeFeed else { return AsyncStream { $0.finish() } }
        let upstream = feed.credentialChanges()
        return AsyncStream { continuation in
            let forwarding = Task { [weak self] in
                for await change in upstream {
                    switch change {
                    case .account(let account): self?.invalidate(account: account)
                    case .unknown: self?.invalidateAll()
                    }
                    continuation.yield(change)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }
}
