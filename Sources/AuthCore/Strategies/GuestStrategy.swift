// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// Anonymous guest sessions: when the guest token is missing or expired, a new session is
/// started for the account's persisted device id.
///
/// ```swift
/// let strategy = GuestStrategy(allowedHosts: hosts, endpoint: baseURL.appending(path: "auth/guest"), transport: transport)
/// ```
public struct GuestStrategy: AuthStrategy {
    /// Where guest tokens may be sent.
    public let allowedHosts: AllowedHosts
    private let startSession: @Sendable (DeviceIdentity, RenewalContext) async throws -> GuestToken

    /// Creates the strategy with a closure that starts a guest session for a device id.
    public init(allowedHosts: AllowedHosts, startSession: @escaping @Sendable (DeviceIdentity, RenewalContext) async throws -> GuestToken) {
        self.allowedHosts = allowedHosts
        self.startSession = startSession
    }

    /// Creates the strategy for an endpoint that answers `POST` with `X-Device-ID` by a token
    /// response (`access_token`, `expires_in`).
    public init(allowedHosts: AllowedHosts, endpoint: URL, transport: any Transport) {
        self.init(allowedHosts: allowedHosts) { device, context in
            var request = try AuthRequest(method: .post, url: endpoint)
            device.authorize(&request)
            request.head.headerFields[.accept] = "application/json"
            let started = ContinuousClock.now
            let response = try await transport.send(request, within: AnswerLimits(), reading: "the guest token endpoint")
            let received = context.now.addingTimeInterval((ContinuousClock.now - started).seconds)
            guard (200..<300).contains(response.status.code) else {
                throw AuthError(code: .renewalFailed, message: "the guest endpoint answered \(response.status.code)", account: context.account, status: response.status.code)
            }
            let tokens = try TokenResponse.parse(response.body)
            // `context.now` is the session's server time already: no offset to add.
            return GuestToken(token: tokens.accessToken.reveal, expiresAt: tokens.expiresIn.map { TokenResponse.issuedAt(response, sent: context.now, received: received, serverClockOffset: 0).addingTimeInterval($0) }, deviceID: device.id)
        }
    }

    /// Starts a new guest session for the account's device id.
    public func renew(_ credential: GuestToken?, context: RenewalContext) async throws -> GuestToken {
        let device = try await DeviceIdentity.loadOrCreate(for: context.account, in: context.vault)
        return try await startSession(device, context)
    }
}
