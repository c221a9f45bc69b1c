// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A snapshot of what the server has seen, for tests to assert on.
///
/// ```swift
/// let counters = server.counters
/// #expect(counters.renewals == 1)
/// #expect(counters.requests(path: "/me") == 3)
/// #expect(counters.lastHeaders(path: "/me")["authorization"] == nil)
/// ```
public struct ServerCounters: Sendable, Equatable {
    /// Successful password logins.
    public var logins = 0
    /// Successful refreshes (each one rotated a refresh token).
    public var renewals = 0
    /// Refresh attempts with an already-rotated refresh token (each revoked a family).
    public var rejectedReuse = 0
    /// Guest sessions started.
    public var guestSessions = 0
    /// Users registered.
    public var registrations = 0
    /// Requests received per path (every request, faulted ones included).
    public var requestsByPath: [String: Int] = [:]
    /// The header fields of the last request per path, names lower-cased, repeated fields joined with ", ".
    public var lastHeadersByPath: [String: [String: String]] = [:]
    /// The query of the last request per path, as it arrived (empty when it had none).
    public var lastQueryByPath: [String: String] = [:]
    /// Counters added by extra route groups, by name.
    public var custom: [String: Int] = [:]

    /// Creates an all-zero snapshot.
    public init() {}

    /// Requests received for `path` (exact path, no query).
    /// - Parameter path: A path such as `/me`.
    public func requests(path: String) -> Int {
        requestsByPath[path, default: 0]
    }

    /// Header fields of the last request to `path`; empty when none arrived.
    /// - Parameter path: A path such as `/me`.
    public func lastHeaders(path: String) -> [String: String] {
        lastHeadersByPath[path] ?? [:]
    }

    /// The query of the last request to `path`, as it arrived; empty when none arrived or it
    /// had no query.
    /// - Parameter path: A path such as `/me`.
    public func lastQuery(path: String) -> String {
        lastQueryByPath[path] ?? ""
    }

    /// A counter added by an extra route group; 0 when never incremented.
    /// - Parameter name: The counter's name.
    public func count(_ name: String) -> Int {
        custom[name, default: 0]
    }
}
