// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

/// The cacheable endpoints every server serves under `/cache`, for testing HTTP caches.
///
/// Each route counts the requests it answers in ``ServerCounters/count(_:)`` under
/// ``counter(_:)`` (`cache.<name>`), and each body ends with `#<n>`, the route's count on this
/// server, so a test can tell a stored response from a new one:
/// - `GET /cache/max-age/{n}`: `Cache-Control: max-age=n`; counter `max-age`.
/// - `GET /cache/etag`: ``etag`` with `max-age=60`; a matching `If-None-Match` gets a bodiless
///   304. Counters `etag` (every request), `etag.200` (full responses), `etag.304`.
/// - `GET /cache/last-modified`: ``lastModified`` with `max-age=0`; a matching
///   `If-Modified-Since` gets a 304. Counters `last-modified`, `last-modified.200`, `last-modified.304`.
/// - `GET /cache/no-store` (`no-store`), `/cache/private` (`private, max-age=60`) and
///   `/cache/set-cookie` (`max-age=60` plus a `Set-Cookie`): counters named after the path.
/// - `GET /cache/user`: `private, max-age=60`, body `user <name> #<n>`. The name is the bearer
///   token's user (a guest is `guest:<device id>`; an invalid token gets the usual 401), else the
///   user name of a Basic `Authorization`, else `anonymous`. Counter `user`.
/// - `GET /cache/document`: `private, max-age=60`, body `document <value> #<n>`, the value
///   read when the request arrives; with a ``holdField``, the answer waits for the next
///   `POST /cache/document/release` (at most a minute). `PUT /cache/document` sets the value to
///   its body (up to 1 KiB) and answers 204. Counters `document.get`, `document.put`.
///
/// ```swift
/// try await AuthTestServer.withRunning { server in
///     // GET \(server.baseURL)/cache/etag twice through a cache …
///     #expect(server.counters.count(CacheEndpoints.counter("etag.200")) == 1)
/// }
/// ```
///
/// The numbers in bodies are kept by the server instance and are not reset by
/// ``AuthTestServer/resetCounters()``; the counters are.
public enum CacheEndpoints {
    /// The fixed `Last-Modified` of `/cache/last-modified`.
    public static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
    /// The request field that holds `GET /cache/document`'s answer until the next
    /// `POST /cache/document/release`; any value.
    public static let holdField = HTTPField.Name("X-Hold")!

    /// The `ETag` of `/cache/etag`.
    public static let etag = "\"v1\""

    /// The name of a cache route's counter in ``ServerCounters/count(_:)``.
    /// - Parameter name: The route's counter name, such as `etag.304` or `user`.
    public static func counter(_ name: String) -> String { "cache.\(name)" }
}
