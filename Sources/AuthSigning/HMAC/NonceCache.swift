// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Synchronization

/// A bounded, thread-safe memory of recently seen nonces that refuses replays.
///
/// Each entry is kept until `retention` after the signed timestamp it came with. When the cache is
/// full, expired entries go first, then the entry with the oldest timestamp; the newest timestamp
/// ever evicted that way is remembered, and any request signed at or before it is refused as a
/// possible replay, so a full cache never lets a replay through (it fails closed). Keep
/// `retention` at least twice the verifier's clock tolerance.
///
/// ```swift
/// let cache = NonceCache(capacity: 10_000, retention: 600)
/// print(cache.insert(nonce: "n1", keyID: "k", timestamp: t, now: now) == .accepted)   // true
/// print(cache.insert(nonce: "n1", keyID: "k", timestamp: t, now: now) == .replayed)   // true
/// ```
public final class NonceCache: Sendable {
    /// The result of recording a nonce.
    public enum Outcome: Sendable, Equatable {
        /// The nonce is new and was recorded.
        case accepted
        /// The nonce was seen before (or is older than what the cache can still vouch for).
        case replayed
    }

    private struct State {
        var entries: [String: Date] = [:]
        var evictedHorizon: Date = .distantPast
    }

    /// The most entries kept at once.
    public let capacity: Int
    /// How long after its signed timestamp a nonce is remembered, in seconds.
    public let retention: TimeInterval
    private let state = Mutex(State())

    /// Creates an empty cache.
    /// - Parameters:
    ///   - capacity: The most entries kept at once (at least 1).
    ///   - retention: Seconds a nonce is remembered after its signed timestamp.
    public init(capacity: Int = 10_000, retention: TimeInterval = 600) {
        self.capacity = max(1, capacity)
        self.retention = retention
    }

    /// Records `nonce` for `keyID` unless it was seen before.
    /// - Parameters:
    ///   - nonce: The request's nonce.
    ///   - keyID: The key the request was signed with; nonces are per key.
    ///   - timestamp: The request's signed timestamp.
    ///   - now: The verifier's current time, for expiry.
    /// - Returns: `.accepted` when new, `.replayed` when seen before or when `timestamp` is
    ///   `retention` or more before `now` (the cache would have forgotten it by then, so it
    ///   cannot vouch for it, whatever time window the verifier accepts).
    public func insert(nonce: String, keyID: String, timestamp: Date, now: Date) -> Outcome {
        let key = keyID + "\u{0}" + nonce
        let capacity = capacity
        let retention = retention
        // Older than the cache remembers: a nonce it may have seen and forgotten (a verifier that
        // accepts older requests than `retention` covers would otherwise take a replay).
        if timestamp.addingTimeInterval(retention) <= now { return .replayed }
        return state.withLock { state in
            if timestamp <= state.evictedHorizon { return .replayed }
            if let seen = state.entries[key], seen.addingTimeInterval(retention) > now { return .replayed }
            if state.entries.count >= capacity {
                state.entries = state.entries.filter { $0.value.addingTimeInterval(retention) > now }
            }
            while state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value < $1.value }) {
                state.entries[oldest.key] = nil
                state.evictedHorizon = max(state.evictedHorizon, oldest.value)
            }
            if timestamp <= state.evictedHorizon { return .replayed }
            state.entries[key] = timestamp
            return .accepted
        }
    }

    /// The number of nonces currently remembered.
    public var count: Int { state.withLock { $0.entries.count } }
}
