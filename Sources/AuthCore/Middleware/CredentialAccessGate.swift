// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Synchronization

/// Asks the app before a stored credential is used: a biometric prompt on Apple platforms, a
/// terminal prompt in a command-line tool.
///
/// The gate asks through its `decide` closure before the first request of an account that would
/// carry the account's credential (or renew it). Once approved, requests of that account go
/// ahead without asking until the approval window ends; the next one asks again. Requests that
/// arrive while a question is open wait for its answer: one question, not one per request.
/// Denied, the request fails with `AuthError` ``ErrorCode/accessDenied`` and nothing is sent;
/// the next request asks again.
///
/// ```swift
/// container.useCredentialAccessGate(CredentialAccessGate(approvalWindow: .seconds(300)) { access in
///     print("Use the saved sign-in of \(access.account) for \(access.origin)? [y/N] ", terminator: "")
///     return readLine()?.lowercased() == "y"
/// })
/// ```
///
/// Requests to origins the account's credential does not go to never ask: they carry no
/// credential. A caller that takes the credential itself (``AccountSession/credentialForRequest()``)
/// is not gated: it decided already.
public final class CredentialAccessGate: Sendable {
    /// What the app decides on: true to allow the use, false to refuse it. A thrown error
    /// refuses it too, and becomes the `accessDenied` error's underlying error.
    public typealias Decide = @Sendable (CredentialAccess) async throws -> Bool

    /// How long an approval lasts, from when it was given.
    public let approvalWindow: Duration
    private let clock: any AuthClock
    private let decide: Decide
    private let accounts = Mutex<[AccountKey: AccountState]>([:])

    private struct AccountState {
        /// Until when the last approval holds.
        var approvedUntil: Date?
        /// The question being asked, which every request of the account waits for.
        var asking: Task<Bool, any Error>?
    }

    /// Creates a gate.
    /// - Parameters:
    ///   - approvalWindow: How long an approval lasts; `.zero` asks before every request (still
    ///     one question for requests that arrive together).
    ///   - clock: The clock the window is measured on.
    ///   - decide: Asks the user; true allows the use of the credential.
    public init(approvalWindow: Duration, clock: any AuthClock = SystemClock(), decide: @escaping Decide) {
        self.approvalWindow = approvalWindow
        self.clock = clock
        self.decide = decide
    }

    /// Whether an approval for `account` holds now: a request may use the credential without
    /// asking.
    public func isApproved(_ account: AccountKey) -> Bool {
        let now = clock.now()
        return accounts.withLock { $0[account]?.approvedUntil.map { now < $0 } ?? false }
    }

    /// Ends every approval: the next request of each account asks again (when the app goes to
    /// the background, or the user locks it).
    public func endApprovals() {
        accounts.withLock { accounts in
            for account in accounts.keys { accounts[account]?.approvedUntil = nil }
        }
    }

    /// Returns when the use described by `access` is approved: by an approval that holds, or by
    /// the answer to a question, asked now or already open.
    /// - Throws: `AuthError` ``ErrorCode/accessDenied`` when the answer is no.
    func admit(_ access: CredentialAccess) async throws {
        let now = clock.now()
        let question: Task<Bool, any Error>? = accounts.withLock { accounts in
            var state = accounts[access.account] ?? AccountState()
            if let until = state.approvedUntil, now < until { return nil }
            if let asking = state.asking { return asking }
            let decide = decide
            let asking = Task { try await decide(access) }
            state.asking = asking
            accounts[access.account] = state
            return asking
        }
        guard let question else { return }
        let answer: Result<Bool, any Error>
        do { answer = .success(try await question.value) } catch { answer = .failure(error) }
        let answeredAt = clock.now()
        accounts.withLock { accounts in
            guard accounts[access.account]?.asking == question else { return }
            accounts[access.account]?.asking = nil
            if case .success(true) = answer { accounts[access.account]?.approvedUntil = answeredAt.addingTimeInterval(approvalWindow.seconds) }
        }
        switch answer {
        case .success(true): return
        case .success(false): throw Self.denied(access, underlying: nil)
        case .failure(let error): throw Self.denied(access, underlying: error)
        }
    }

    private static func denied(_ access: CredentialAccess, underlying: (any Error)?) -> AuthError {
        AuthError(code: .accessDenied, message: "the use of the stored credential was not approved (CredentialAccessGate); the request was not sent", account: access.account, underlying: underlying)
    }
}

/// A use of a stored credential that a ``CredentialAccessGate`` decides on: whose, and where
/// it would go. Holds no secret.
public struct CredentialAccess: Sendable, CustomStringConvertible {
    /// The account whose credential the request would carry.
    public let account: AccountKey
    /// Where the request goes.
    public let origin: Origin
    /// The request's method.
    public let method: String

    /// Describes a use.
    /// - Parameters:
    ///   - account: The account whose credential the request would carry.
    ///   - origin: Where the request goes.
    ///   - method: The request's method.
    public init(account: AccountKey, origin: Origin, method: String) {
        self.account = account
        self.origin = origin
        self.method = method
    }

    /// `GET https://api.example.com as api/alice`.
    public var description: String { "\(method) \(origin) as \(account)" }
}
