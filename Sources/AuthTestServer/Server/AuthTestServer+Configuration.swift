// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Logging

extension AuthTestServer {
    /// How a server instance behaves: address, token lifetimes, clock, keys, policies, extra routes.
    ///
    /// ```swift
    /// let clock = ServerClock()
    /// var configuration = AuthTestServer.Configuration(clock: clock)
    /// configuration.lifetimes.access = 60
    /// ```
    public struct Configuration: Sendable {
        /// Address to bind (default `127.0.0.1`).
        public var host: String
        /// Port to bind; 0 (the default) lets the system choose a free one.
        public var port: Int
        /// Access, refresh and guest token lifetimes.
        public var lifetimes: TokenLifetimes
        /// The clock for expiry checks and the `Date` header.
        public var clock: ServerClock
        /// bcrypt cost (log2 rounds); low by default for test speed, clamped to 4...31.
        public var bcryptCost: UInt8
        /// Signs access tokens; a random key by default.
        public var signer: JWTSigner
        /// What a correct password login answers (by default tokens, or `mfa_required` for users with TOTP enrolled).
        public var loginPolicy: LoginPolicy
        /// Extra route groups, added after the built-in ones.
        public var routeGroups: [any RouteGroup]
        /// Largest request body accepted, in bytes.
        public var maxBodySize: Int
        /// Server logger; `.warning` level by default. Never receives a password or token.
        public var logger: Logger
        /// Seconds between polls the OAuth 2.0 provider's device grant asks for (RFC 8628 `interval`).
        public var deviceInterval = 1
        /// How the OAuth 2.0 provider departs from the RFCs as well-known providers do; none by default.
        public var oauth2Quirks = OAuth2ProviderQuirks()

        /// Creates a configuration.
        /// - Parameters:
        ///   - host: Address to bind.
        ///   - port: Port to bind (0: any free port).
        ///   - lifetimes: Token lifetimes.
        ///   - clock: Server clock.
        ///   - bcryptCost: bcrypt cost.
        ///   - signer: Access-token signer.
        ///   - loginPolicy: Login decision.
        ///   - routeGroups: Extra route groups.
        ///   - maxBodySize: Largest body accepted.
        ///   - logger: Server logger.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            lifetimes: TokenLifetimes = TokenLifetimes(),
            clock: ServerClock = ServerClock(),
            bcryptCost: UInt8 = 4,
            signer: JWTSigner = .random(),
            loginPolicy: LoginPolicy = .mfaWhenEnrolled,
            routeGroups: [any RouteGroup] = [],
            maxBodySize: Int = 1 << 20,
            logger: Logger? = nil
        ) {
            self.host = host
            self.port = port
            self.lifetimes = lifetimes
            self.clock = clock
            self.bcryptCost = bcryptCost
            self.signer = signer
            self.loginPolicy = loginPolicy
            self.routeGroups = routeGroups
            self.maxBodySize = maxBodySize
            self.logger = logger ?? {
                var logger = Logger(label: "AuthTestServer")
                logger.logLevel = .warning
                return logger
            }()
        }

        /// ``bcryptCost`` within the range bcrypt accepts (4...31).
        var effectiveBcryptCost: UInt8 { min(max(bcryptCost, 4), 31) }
    }
}
