// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// Refuses a one-time code whose time step (or HOTP counter) is not later than the last one
/// accepted for the account, so that each code works once (RFC 6238 §5.2).
///
/// The last accepted step is persisted in a ``/AuthCore/CredentialStore`` (item `otp-replay` of the
/// account, kind `otp.replay`, JSON `{"lastAcceptedStep": N}`), so it survives restarts and is
/// shared by every guard over the same store. A step is recorded by compare-and-swap on the
/// record (``/AuthCore/CredentialStore/replace(_:ifCurrent:with:)``), so two concurrent submissions
/// of the same code cannot both be accepted, whether they reach the same guard, two guards, or
/// two processes sharing the store. (Calls for one account to one guard also wait for each
/// other, which spares them conflicts; correctness does not rest on that.)
///
/// ```swift
/// let replayGuard = OTPReplayGuard(store: store)
/// if let step = try totp.verify(code, at: now), try await replayGuard.accept(step: step, for: account) {
///     // first use of this code
/// }
/// ```
public actor OTPReplayGuard: CustomStringConvertible, CustomReflectable {
    /// The item name of the record.
    public static let item = "otp-replay"
    /// The envelope kind of the record.
    public static let kind = "otp.replay"

    private struct Record: Codable, Sendable {
        var lastAcceptedStep: UInt64
    }

    private let store: any CredentialStore
    private let now: @Sendable () -> Date
    private let locks = AccountLocks()
    private let json = StoredJSON<Record>(kind: OTPReplayGuard.kind, formatVersion: 1)

    /// Creates a guard over `store`.
    ///
    /// - Parameters:
    ///   - store: Where the last accepted steps are kept.
    ///   - now: The clock used for the records' `updatedAt`.
    public init(store: any CredentialStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// The last step accepted for `account`, or nil when none was.
    ///
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the store fails or the record is unreadable.
    public func lastAcceptedStep(for account: AccountKey) async throws -> UInt64? {
        try await json.load(from: store, key: account.item(Self.item))?.lastAcceptedStep
    }

    /// Records `step` as used if it is later than every step accepted before.
    ///
    /// - Returns: true when the step was new and is now recorded; false for a replay (the step
    ///   or a later one was accepted already).
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the record cannot be read or written;
    ///   ``MFAError`` `.writeConflict` when other writers kept changing the record. The step is
    ///   then not accepted.
    public func accept(step: UInt64, for account: AccountKey) async throws -> Bool {
        try await locks.withLock(account) { [self] in
            try await self.acceptHoldingLock(step: step, for: account)
        }
    }

    /// Forgets the account's record (for example when its secret is replaced).
    public func reset(for account: AccountKey) async throws {
        try await locks.withLock(account) { [store] in
            try await store.delete(account.item(Self.item))
        }
    }

    private func acceptHoldingLock(step: UInt64, for account: AccountKey) async throws -> Bool {
        try await json.update(in: store, key: account.item(Self.item), now: now) { record, _ in
            if let last = record?.lastAcceptedStep, step <= last { return (nil, false) }
            return (Record(lastAcceptedStep: step), true)
        }
    }

    /// `OTPReplayGuard(item: otp-replay)`.
    public nonisolated var description: String { "OTPReplayGuard(item: \(Self.item))" }
    /// A mirror with the item name only (the store is not reflected).
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["item": Self.item], displayStyle: .class) }
}
