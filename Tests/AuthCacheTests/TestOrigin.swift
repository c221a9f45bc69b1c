// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization

/// An in-process origin for the pure caching rules: a `ClosureTransport` that answers with a
/// closure and records every request that reached it.
final class TestOrigin: Sendable {
    private let received = Mutex<[HTTPRequest]>([])
    private let answer: @Sendable (AuthRequest, Int) throws -> AuthResponse

    /// - Parameter answer: Builds the response from the request and its 1-based number.
    init(_ answer: @escaping @Sendable (AuthRequest, Int) throws -> AuthResponse) {
        self.answer = answer
    }

    /// The requests that reached the origin, in order.
    var requests: [HTTPRequest] { received.withLock { $0 } }
    /// How many requests reached the origin.
    var count: Int { received.withLock { $0.count } }

    var transport: ClosureTransport {
        ClosureTransport { request in
            let number = self.received.withLock { received in
                received.append(request.head)
                return received.count
            }
            return try self.answer(request, number)
        }
    }

    /// A client that acts as `account` through `cache`.
    func client(cache: ResponseCache, clock: ManualClock, account: AccountKey = AccountKey(namespace: "api", account: "alice")) -> AuthClient {
        AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: account, clock: clock)])
    }

    /// An origin whose every answer is 200 with `fields` and body `#<number>`.
    static func fixed(_ fields: HTTPFields) -> TestOrigin {
        TestOrigin { _, number in AuthResponse(status: .ok, headerFields: fields, body: Data("#\(number)".utf8)) }
    }
}

/// The body as text.
func text(_ response: AuthResponse) -> String { String(decoding: response.body, as: UTF8.self) }

/// A URL of the test origin.
func testURL(_ path: String) -> URL {
    URL(string: "https://api.example.com\(path)") ?? URL(fileURLWithPath: "/")
}
