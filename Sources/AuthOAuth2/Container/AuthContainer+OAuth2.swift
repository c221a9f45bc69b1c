// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension AuthContainer {
    /// Puts DPoP proofs on the requests of the account clients built from now on that carry a
    /// DPoP-bound token, each account with its key from `keyring` (kept in the container's vault).
    /// - Parameters:
    ///   - keyring: Gives each account its key.
    ///   - allowedHosts: Where proofs may go; by default each client's strategy's hosts.
    public func useDPoP(_ keyring: DPoPKeyring, allowedHosts: AllowedHosts? = nil) {
        addMiddleware(.proof) { context in
            let scope = context.credentialScope
            return DPoPMiddleware(
                keyring: keyring, account: context.account, vault: context.container[CredentialVaultKey.self],
                scope: CredentialScope(allowedHosts: allowedHosts ?? scope.allowedHosts, account: scope.account, events: scope.events))
        }
    }
}
