// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The key names a legacy single-user layout keeps one credential under, and which credential
/// they make.
///
/// Presets cover the common layouts; ``custom(accessToken:refreshToken:expiresAt:scope:)``,
/// ``customGuest(token:deviceID:expiresAt:)`` and ``apiKey(key:headerName:prefix:)`` take any
/// names the caller gives.
///
/// ```swift
/// let layout = LegacyLayout.custom(accessToken: "tok", refreshToken: "rtok", expiresAt: "tok_exp")
/// ```
public struct LegacyLayout: Sendable, Hashable, CustomStringConvertible {
    /// Which credential the values make, and the key name of each value.
    public enum Shape: Sendable, Hashable {
        /// A `BearerTokenSet`. Only the access token is required.
        case bearer(accessToken: String, refreshToken: String?, expiresAt: String?, scope: String?)
        /// A `GuestToken`. Token and device id are required.
        case guest(token: String, deviceID: String, expiresAt: String?)
        /// An `APIKeyHeaderCredential` sent in `headerName` with `prefix`.
        case apiKeyHeader(key: String, headerName: String, prefix: String)
    }

    /// A name for reports, such as `standard`.
    public var name: String
    /// The credential and its key names.
    public var shape: Shape

    /// Creates a layout.
    public init(name: String, shape: Shape) {
        self.name = name
        self.shape = shape
    }

    /// `old_access_token` and `old_refresh_token`.
    public static let oldPrefixed = LegacyLayout(
        name: "oldPrefixed", shape: .bearer(accessToken: "old_access_token", refreshToken: "old_refresh_token", expiresAt: nil, scope: nil))
    /// `access_token`, `refresh_token` and, when present, `expires_at`.
    public static let standard = LegacyLayout(
        name: "standard", shape: .bearer(accessToken: "access_token", refreshToken: "refresh_token", expiresAt: "expires_at", scope: nil))
    /// `guest_token` with `device_id`.
    public static let guest = LegacyLayout(
        name: "guest", shape: .guest(token: "guest_token", deviceID: "device_id", expiresAt: nil))

    /// A bearer token set under the caller's key names.
    public static func custom(accessToken: String, refreshToken: String? = nil, expiresAt: String? = nil, scope: String? = nil) -> LegacyLayout {
        LegacyLayout(name: "custom", shape: .bearer(accessToken: accessToken, refreshToken: refreshToken, expiresAt: expiresAt, scope: scope))
    }

    /// A guest token under the caller's key names.
    public static func customGuest(token: String, deviceID: String, expiresAt: String? = nil) -> LegacyLayout {
        LegacyLayout(name: "customGuest", shape: .guest(token: token, deviceID: deviceID, expiresAt: expiresAt))
    }

    /// An API key sent in a header, read from `key` (`api_key` by default).
    public static func apiKey(key: String = "api_key", headerName: String = "X-API-Key", prefix: String = "") -> LegacyLayout {
        LegacyLayout(name: "apiKey", shape: .apiKeyHeader(key: key, headerName: headerName, prefix: prefix))
    }

    /// The key whose presence means the layout is there: the access token, guest token or API key.
    public var primaryKey: String {
        switch shape {
        case .bearer(let accessToken, _, _, _): accessToken
        case .guest(let token, _, _): token
        case .apiKeyHeader(let key, _, _): key
        }
    }

    /// Every key name the layout reads.
    public var keyNames: [String] {
        switch shape {
        case .bearer(let access, let refresh, let expires, let scope): [access] + [refresh, expires, scope].compactMap { $0 }
        case .guest(let token, let device, let expires): [token, device] + [expires].compactMap { $0 }
        case .apiKeyHeader(let key, _, _): [key]
        }
    }

    /// `name(key names)`.
    public var description: String { "\(name)(\(keyNames.joined(separator: ", ")))" }
}
