// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Hummingbird

/// The errors of the test server: a failure to start it, a token it refused (access or refresh),
/// or a bearer request it refused.
///
/// Never contains a token. Two errors are equal when their codes and messages are; the
/// ``underlying`` error is not compared.
public struct AuthTestServerError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure.
    public typealias Code = ErrorCode<AuthTestServerError>

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do, without any secret (for a refused refresh, the
    /// `error_description`).
    public let message: String
    /// The lower failure, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong; must not contain a token.
    ///   - underlying: The lower failure.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `AuthTestServerError(code): message (cause: …)`.
    public var description: String {
        var text = "AuthTestServerError(\(code)): \(message)"
        if let underlying { text += " (cause: \(underlying))" }
        return text
    }

    /// Whether the codes and messages are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }
}

extension AuthTestServerError {
    /// For a bearer request that ``RouteEnvironment/authenticate(_:)`` refused, the 401 to send,
    /// with its `WWW-Authenticate` challenge.
    public var response: Response { ServerResponse.invalidToken(self) }
}

extension ErrorCode where Domain == AuthTestServerError {
    // Starting the server.

    /// ``AuthTestServer/start()`` was called on a server that is starting or running.
    public static var alreadyRunning: Self { Self("alreadyRunning") }
    /// The server could not bind or stopped before listening.
    public static var startFailed: Self { Self("startFailed") }

    // Bearer requests and access tokens.

    /// A bearer-protected request sent no bearer token.
    public static var missingBearerToken: Self { Self("missingBearerToken") }
    /// The token is not three base64url segments of JSON.
    public static var malformedToken: Self { Self("malformedToken") }
    /// The header names an algorithm other than HS256.
    public static var unsupportedAlgorithm: Self { Self("unsupportedAlgorithm") }
    /// The signature does not match the server key.
    public static var badSignature: Self { Self("badSignature") }
    /// The access token's `exp` claim is at or before the server clock's now.
    public static var accessTokenExpired: Self { Self("accessTokenExpired") }
    /// The access token's family was revoked (logout, refresh-token reuse), or its user no
    /// longer exists.
    public static var accessTokenRevoked: Self { Self("accessTokenRevoked") }

    // Refreshes: every one answers 400 `invalid_grant`.

    /// The server never issued this refresh token.
    public static var refreshTokenUnknown: Self { Self("refreshTokenUnknown") }
    /// The refresh token's lifetime is over.
    public static var refreshTokenExpired: Self { Self("refreshTokenExpired") }
    /// The refresh token's family was revoked (logout, reuse, server-side revocation).
    public static var refreshTokenRevoked: Self { Self("refreshTokenRevoked") }
    /// The refresh token had already been rotated; the family is now revoked.
    public static var refreshTokenReused: Self { Self("refreshTokenReused") }
}
