// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Observation

/// An account's ``/AuthCore/AccountState`` as an `@Observable` model for SwiftUI (and anything else that
/// uses Observation): a view that reads ``state`` is redrawn when the account signs in or out,
/// renews, needs a new sign-in, or loses its store.
///
/// ```swift
/// let model = AccountStateModel(session: client.session)
/// // In a view: if case .reauthenticationRequired = model.state { SignInButton() }
/// ```
@Observable @MainActor
public final class AccountStateModel {
    /// The account's state; nil until the session has read its stored credential.
    public private(set) var state: AccountState?
    /// The account.
    public let account: AccountKey
    @ObservationIgnored private var following: Task<Void, Never>?

    /// Follows `session`'s ``/AuthCore/AccountSession/states()`` until the model is released.
    public init<Strategy: AuthStrategy>(session: AccountSession<Strategy>) {
        account = session.account
        let states = session.states()
        following = Task { [weak self] in
            for await state in states {
                guard let self else { return }
                self.state = state
            }
        }
    }

    isolated deinit {
        following?.cancel()
    }
}
