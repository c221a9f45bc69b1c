// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// A device authorization in progress (RFC 8628 §3.2): what to show the user, and what polling
/// for the tokens needs. The device code is a ``/AuthCore/Secret``.
public struct DeviceAuthorization: Sendable, Equatable, Codable, CustomStringConvertible {
    /// `device_code`: what the client polls with.
    public let deviceCode: Secret
    /// `user_code`: what the user types at ``verificationURI``.
    public let userCode: String
    /// `verification_uri`: where the user goes.
    public let verificationURI: URL
    /// `verification_uri_complete`: the same with the user code filled in (for a QR code).
    public let verificationURIComplete: URL?
    /// When the device code expires, by the client's clock.
    public let expiresAt: Date
    /// `interval`: the least time between polls (5 s when the server names none).
    public let interval: Duration

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code", userCode = "user_code", verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete", expiresAt = "expires_at", interval
    }

    /// Creates the record; ``OAuth2Client/startDeviceAuthorization(scopes:parameters:)`` makes one.
    public init(deviceCode: Secret, userCode: String, verificationURI: URL, verificationURIComplete: URL?, expiresAt: Date, interval: Duration) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = expiresAt
        self.interval = interval
    }

    /// What to tell the user; never the device code.
    public var description: String { "DeviceAuthorization(go to \(verificationURI.absoluteString) and enter \(userCode))" }
}

/// What polling a device authorization reports while the user has not answered yet.
public enum DeviceAuthorizationProgress: Sendable, Equatable {
    /// `authorization_pending`: the user has not answered; the next poll is in `nextPollIn`.
    case pending(nextPollIn: Duration)
    /// `slow_down`: the server asked for slower polling; the interval is now `interval`.
    case slowedDown(interval: Duration)
    /// The token endpoint was busy (`429` or `503` with `Retry-After`); the next poll is in
    /// `nextPollIn`, when the server asks to try again or the interval ends, whichever is later.
    case serverBusy(nextPollIn: Duration)
}

/// The device authorization response as the server sends it (RFC 8628 §3.2).
///
/// Read as widely used providers send it: Google names the page `verification_url` (the name of
/// the draft before RFC 8628), and some providers send `expires_in` and `interval` as numeric
/// strings; Go's oauth2 reads both.
struct DeviceAuthorizationResponse: Decodable {
    let device_code: String
    let user_code: String
    let verification_uri: URL
    let verification_uri_complete: URL?
    let expires_in: Double
    let interval: Double?

    enum CodingKeys: String, CodingKey {
        case device_code, user_code, verification_uri, verification_url, verification_uri_complete, expires_in, interval
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        device_code = try c.decode(String.self, forKey: .device_code)
        user_code = try c.decode(String.self, forKey: .user_code)
        if c.contains(.verification_uri) {
            verification_uri = try c.decode(URL.self, forKey: .verification_uri)
        } else {
            verification_uri = try c.decode(URL.self, forKey: .verification_url)
        }
        verification_uri_complete = try c.decodeIfPresent(URL.self, forKey: .verification_uri_complete)
        guard let lifetime = try Self.seconds(c, .expires_in) else {
            throw DecodingError.keyNotFound(CodingKeys.expires_in, .init(codingPath: c.codingPath, debugDescription: "expires_in is missing or not a number"))
        }
        expires_in = lifetime
        interval = try Self.seconds(c, .interval)
    }

    /// A number of seconds, sent as a number or a numeric string.
    private static func seconds(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Double? {
        if let seconds = try? c.decodeIfPresent(Double.self, forKey: key) { return seconds }
        return try c.decodeIfPresent(String.self, forKey: key).flatMap(Double.init)
    }
}
