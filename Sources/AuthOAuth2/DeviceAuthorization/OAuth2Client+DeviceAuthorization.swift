// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension OAuth2Client {
    /// The grant type of RFC 8628 §3.4.
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// Starts a device authorization (RFC 8628 §3.1): the code the user enters on another
    /// device, and where.
    ///
    /// ```swift
    /// let device = try await app.startDeviceAuthorization(scopes: ["read"])
    /// print("Go to \(device.verificationURI) and enter \(device.userCode)")
    /// let tokens = try await app.pollDeviceAuthorization(device)
    /// ```
    /// - Throws: `AuthError` `.misconfigured` when the provider has no device authorization
    ///   endpoint or its `verification_uri` is not https (or http on loopback), the endpoint's errors (see ``OAuth2TokenEndpoint``), `.decoding`.
    public func startDeviceAuthorization(scopes: [String], parameters: [(String, String)] = []) async throws -> DeviceAuthorization {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no device authorization endpoint")
        }
        var form = parameters
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let response = try await tokenEndpoint().post(form, to: endpoint)
        guard (200..<300).contains(response.status.code), !OAuth2TokenEndpoint.isErrorAnswer(response, expecting: "device_code") else {
            throw OAuth2TokenEndpoint.error(from: response)
        }
        let answer: DeviceAuthorizationResponse
        do {
            answer = try JSONDecoder().decode(DeviceAuthorizationResponse.self, from: response.body)
        } catch {
            throw AuthError(code: .decoding, message: "the device authorization response is not the expected JSON: \(DecodingFailure(error))", status: response.status.code)
        }
        try OAuth2Provider.checkScheme(of: answer.verification_uri, named: "verification_uri")
        if let complete = answer.verification_uri_complete { try OAuth2Provider.checkScheme(of: complete, named: "verification_uri_complete") }
        let lifetime = min(max(answer.expires_in.isFinite ? answer.expires_in : 0, 0), 86_400)
        let interval = min(max(answer.interval.map { $0.isFinite ? $0 : 5 } ?? 5, 1), 3_600)
        return DeviceAuthorization(
            deviceCode: Secret(answer.device_code), userCode: answer.user_code, verificationURI: answer.verification_uri,
            verificationURIComplete: answer.verification_uri_complete, expiresAt: clock.now().addingTimeInterval(lifetime),
            interval: .milliseconds(Int64(interval * 1000)))
    }

    /// Polls the token endpoint until the user answers (RFC 8628 §3.4, §3.5): waits `interval`
    /// before each poll, 5 s more after each `slow_down`, at least what a `Retry-After` asks
    /// (a `429` or `503` is waited out, not the end of the flow), and stops at the device code's
    /// expiry. Cancelling the task stops it.
    /// - Parameters:
    ///   - device: The authorization ``startDeviceAuthorization(scopes:parameters:)`` returned.
    ///   - progress: Told of each `authorization_pending`, `slow_down` and busy answer.
    /// - Returns: The tokens, once the user approved.
    /// - Throws: `AuthError` `.authorizationFailed` when the user refused (`access_denied`) or
    ///   the code expired (`expired_token`, or its lifetime passed here); the token endpoint's
    ///   other errors; `CancellationError`.
    public func pollDeviceAuthorization(_ device: DeviceAuthorization, progress: (@Sendable (DeviceAuthorizationProgress) -> Void)? = nil) async throws -> BearerTokenSet {
        let endpoint = try await tokenEndpoint()
        let form = [("grant_type", Self.deviceCodeGrant), ("device_code", device.deviceCode.reveal)]
        var interval = device.interval
        var wait = interval
        while true {
            try await clock.sleep(for: wait)
            guard clock.now() < device.expiresAt else {
                throw AuthError(code: .authorizationFailed, message: "the device code expired before the user answered; start again")
            }
            do {
                return try await endpoint.requestTokens(form)
            } catch let error as AuthError {
                switch (error.underlying as? OAuth2Error)?.code {
                case "authorization_pending":
                    wait = max(interval, error.retryAfter ?? .zero)
                    progress?(.pending(nextPollIn: wait))
                case "slow_down":
                    interval += .seconds(5)
                    wait = max(interval, error.retryAfter ?? .zero)
                    progress?(.slowedDown(interval: interval))
                case "access_denied":
                    throw AuthError(code: .authorizationFailed, message: "the user refused the device authorization (access_denied)", underlying: error.underlying)
                case "expired_token":
                    throw AuthError(code: .authorizationFailed, message: "the device code expired before the user answered (expired_token); start again", underlying: error.underlying)
                default:
                    guard let retryAfter = error.retryAfter else { throw error }
                    wait = max(interval, retryAfter)
                    progress?(.serverBusy(nextPollIn: wait))
                }
            }
        }
    }
}
