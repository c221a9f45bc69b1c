// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthURLSession
import Testing

/// The two transports a test runs a peer's checks through.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible {
    case asyncHTTPClient, urlSession
    var testDescription: String { rawValue }

    /// Runs `body` with a transport of this kind, shut down after.
    func withTransport<T>(_ body: (any Transport) async throws -> T) async throws -> T {
        switch self {
        case .asyncHTTPClient: try await HTTPClientTransport.withTransport { try await body($0) }
        case .urlSession: try await body(URLSessionTransport(timeout: .seconds(30)))
        }
    }
}
