// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Where the OAuth 2.0 provider departs from the RFCs as widely used providers do, so that a
/// client can be tested against their shapes. None by default.
///
/// ```swift
/// var configuration = AuthTestServer.Configuration()
/// configuration.oauth2Quirks = OAuth2ProviderQuirks(errorsWithOK: true)  // as GitHub
/// ```
public struct OAuth2ProviderQuirks: Sendable, Hashable {
    /// The device grant's errors (`authorization_pending`, `slow_down`, …) answered with
    /// `200 OK` and the error body, as GitHub answers them (RFC 6749 §5.2 says 400).
    public var errorsWithOK: Bool
    /// The device authorization answer names the page `verification_url`, as Google's does
    /// (RFC 8628 §3.2 says `verification_uri`), and sends `expires_in` and `interval` as
    /// numeric strings.
    public var verificationURL: Bool

    /// Creates the quirks; none by default.
    public init(errorsWithOK: Bool = false, verificationURL: Bool = false) {
        self.errorsWithOK = errorsWithOK
        self.verificationURL = verificationURL
    }
}
