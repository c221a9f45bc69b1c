// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A failure the server can be told to produce for the next requests to a path.
///
/// ```swift
/// server.faults.inject(.status(429, retryAfter: "1"), path: "/me", times: 1)
/// server.faults.inject(.status(503), path: "/auth/refresh", times: 2)
/// ```
public enum Fault: Sendable, Equatable {
    /// Answer with this status, an optional `Retry-After` value and a JSON body
    /// `{"error":"injected_fault","status":N}`.
    case status(Int, retryAfter: String? = nil)
    /// Answer 200 with `Content-Type: application/json` and a body that is not valid JSON.
    case malformedJSON
    /// Wait this long, then handle the request normally.
    case delay(Duration)
    /// Handle the request normally, then hold the answer this long before it leaves: its `Date`
    /// is stamped as it leaves, after whatever the route minted, as on a loaded server.
    case slowAnswer(Duration)
    /// Answer with a redirect to `to` (any URL, another origin included).
    case redirect(to: String, status: Int = 302)
    /// Answer with exactly this status, these headers and this body.
    case response(status: Int, headers: [String: String], body: String)
}

extension Fault {
    /// The body that ``Fault/malformedJSON`` and `GET /fault/malformed-json` send: JSON cut short.
    public static let malformedJSONBody = #"{"access_token": "eyJhbGciOi", "expires_in": 30"#
}
