// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

extension HTTPClientTransport {
    /// What went wrong, by the error's type (never by its text): a refused connection, an
    /// unknown host, a timeout, or the error's type and description.
    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if error.connectionErrors.contains(where: { Self.errno(of: $0.error) == ECONNREFUSED }) { return "connection refused" }
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name did not resolve" }
            return "could not connect (\(error.connectionErrors.count) address(es) tried)"
        }
        if let code = Self.errno(of: error) {
            return code == ECONNREFUSED ? "connection refused" : "I/O error \(code)"
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "the connection was not established within the connect timeout"
            case .readTimeout: return "no response within the read timeout"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(error)"
            }
        }
        return String(describing: type(of: error)) + ": " + String(describing: error)
    }

    private static func errno(of error: any Error) -> CInt? {
        (error as? IOError)?.errnoCode
    }
}
