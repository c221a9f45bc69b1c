// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// A short-lived token for an anonymous session, tied to a device id.
///
/// It is sent as a bearer token together with the `X-Device-ID` header.
public struct GuestToken: Credential {
    /// `guest`.
    public static let kind = "guest"
    /// The token.
    public var token: Secret
    /// When the guest session ends.
    public var expiresAt: Date?
    /// The device id the session belongs to.
    public var deviceID: String

    /// Creates a guest token.
    public init(token: String, expiresAt: Date?, deviceID: String) {
        self.token = Secret(token)
        self.expiresAt = expiresAt ?? (try? JWT.decode(token))?.expiresAt
        self.deviceID = deviceID
    }
    /// Sets `Authorization: Bearer <token>` and `X-Device-ID`.
    public func authorize(_ request: inout AuthRequest) {
        request.head.headerFields[.authorization] = "Bearer \(token.reveal)"
        request.head.headerFields[.deviceID] = deviceID
    }
    /// Device id and expiry; never the token.
    public var description: String { "GuestToken(deviceID: \(deviceID), expiresAt: \(expiresAt.map { "\($0)" } ?? "none"))" }
}

extension HTTPField.Name {
    /// `X-Device-ID`, the header that ties a guest session to a device.
    public static let deviceID = HTTPField.Name("X-Device-ID")!
}
