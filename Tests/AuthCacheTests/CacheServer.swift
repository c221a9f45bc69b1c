// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthTestServer
import Foundation
import HTTPTypes
import Synchronization

/// The real AuthTestServer on 127.0.0.1 (its `/cache` endpoints) and a real AsyncHTTPClient
/// transport to it.
enum CacheServer {
    /// Runs `body` with a started server and a transport, then stops both.
    static func run<T>(_ body: (AuthTestServer, HTTPClientTransport) async throws -> T) async throws -> T {
        try await AuthTestServer.withRunning { server in
            try await HTTPClientTransport.withTransport { transport in
                try await body(server, transport)
            }
        }
    }
}

extension AuthTestServer {
    /// How many requests the cache route counter `name` (such as `etag.304`) has counted.
    func cacheHits(_ name: String) -> Int {
        counters.count(CacheEndpoints.counter(name))
    }

    /// The URL of a path under the server's base URL, such as `cache/etag`.
    func url(_ path: String) -> URL {
        baseURL.appendingPathComponent(path)
    }
}

/// A transport that records what went over the wire, in front of another transport.
final class RecordingTransport: Transport {
    /// One exchange as the wire saw it.
    struct Exchange: Sendable {
        let request: HTTPRequest
        let status: Int
        let bodyBytes: Int
    }

    let inner: any Transport
    private let log = Mutex<[Exchange]>([])

    init(_ inner: any Transport) { self.inner = inner }

    /// Every exchange, in order.
    var exchanges: [Exchange] { log.withLock { $0 } }

    func send(_ request: AuthRequest) async throws -> AuthResponse {
        let response = try await inner.send(request)
        log.withLock { $0.append(Exchange(request: request.head, status: response.status.code, bodyBytes: response.body.count)) }
        return response
    }
}
