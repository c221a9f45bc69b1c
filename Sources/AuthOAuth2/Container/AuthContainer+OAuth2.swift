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
    ///
    /// A sign-out of an account whose client this container built, however it is made, removes
    /// its key from the vault and from `keyring` (a sign-out step, ``/AuthCore/SignOutSteps``):
    /// the next sign-in is bound to a new key, in this process and in the next one alike. A
    /// sign-out in another process sharing the store does not reach this process's `keyring`.
    /// - Parameters:
    ///   - keyring: Gives each account its key.
    ///   - allowedHosts: Where proofs may go; by default each client's strategy's hosts.
    public func useDPoP(_ keyring: DPoPKeyring, allowedHosts: AllowedHosts? = nil) {
        addMiddleware(.proof) { context in
            let vault = context.container[CredentialVaultKey.self]
            // Before, a sign-out left the key cached in the keyring (and, unless made through
            // `OAuth2Client.signOut`, in the vault): the next sign-in in this process was bound to
            // it, and one in the next process, which made a new key, was refused.
            context.container.addSignOutStep(named: "dpop-key") { account in
                defer { keyring.forget(account) }  // even when the vault refuses the removal
                try await vault.delete(for: account, item: DPoPKey.item)
            }
            let scope = context.credentialScope
            return DPoPMiddleware(
                keyring: keyring, account: context.account, vault: vault,
                scope: CredentialScope(allowedHosts: allowedHosts ?? scope.allowedHosts, account: scope.account, events: scope.events))
        }
    }
}
