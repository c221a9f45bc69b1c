// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Testing
import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import AuthURLSession
import Foundation
import NIOCore

/// The transports every transport test runs against: AsyncHTTPClient's and URLSession's.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case asyncHTTPClient
    case urlSession

    var testDescription: String { rawValue }

    /// Runs `body` with a transport of this kind (its read timeout `timeout`), shut down after.
    func withTransport<T: Sendable>(timeout: Duration = .seconds(60), _ body: @Sendable (any Transport) async throws -> T) async throws -> T {
        switch self {
        case .asyncHTTPClient:
            var configuration = HTTPClientTransport.defaultConfiguration
            configuration.timeout = .init(connect: .seconds(10), read: .init(timeout))
            return try await HTTPClientTransport.withTransport(configuration: configuration) { try await body($0) }
        case .urlSession:
            return try await body(URLSessionTransport(timeout: timeout))
        }
    }
}
