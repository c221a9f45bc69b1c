// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// An OAuth 2.0 error response (RFC 6749 §5.2).
public struct OAuth2Error: Error, Sendable, Decodable, Equatable, CustomStringConvertible {
    /// `error`, such as `invalid_grant`.
    public var code: String
    /// `error_description`.
    public var errorDescription: String?
    /// `error_uri`.
    public var errorURI: String?
    /// The HTTP status it came with.
    public var status: Int = 400

    enum CodingKeys: String, CodingKey { case code = "error", errorDescription = "error_description", errorURI = "error_uri" }

    /// Creates an error.
    public init(code: String, errorDescription: String? = nil, errorURI: String? = nil, status: Int = 400) {
        self.code = code
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.status = status
    }

    /// `OAuth2Error(invalid_grant): description`.
    public var description: String {
        "OAuth2Error(\(code))" + (errorDescription.map { ": \($0)" } ?? "")
    }
}
