// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

extension OAuth2Client {
    /// Pushes an authorization request to the provider (RFC 9126) and returns the `request_uri`
    /// that stands for it in the browser's request.
    ///
    /// The request goes to the provider's `pushed_authorization_request_endpoint` with the
    /// client's authentication, like a token request. The answer must carry a `request_uri` and
    /// a positive `expires_in`; a `request_uri` that is a URL on another origin than the
    /// issuer's is refused (the provider would fetch a request object from there, RFC 9101
    /// §5.2: not one this client made).
    /// - Parameters:
    ///   - parameters: The authorization request's parameters (with `client_id`, which the
    ///     client's authentication sets as it does at the token endpoint).
    ///   - metadata: The provider's metadata.
    /// - Returns: The `request_uri` and how many seconds it is valid.
    /// - Throws: `AuthError` `.misconfigured` when the provider has no such endpoint or refuses
    ///   the client (`invalid_client`…); `.authorizationFailed` when it refuses the request (the
    ///   ``/AuthCore/OAuth2Error`` underlying) or answers something else than a request URI.
    func pushAuthorizationRequest(_ parameters: [(String, String)], metadata: AuthorizationServerMetadata) async throws -> (requestURI: String, expiresIn: Int) {
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no pushed authorization request endpoint (RFC 9126)")
        }
        var form = parameters.filter { $0.0 != "client_id" }
        if case .clientSecretBasic = authentication { form.insert(("client_id", clientID), at: 0) }
        // A client bound to a DPoP key binds the pushed request too (RFC 9449 §10.1), like its token requests.
        let response = try await tokenEndpoint().post(form, to: endpoint)
        guard (200..<300).contains(response.status.code), !OAuth2TokenEndpoint.isErrorAnswer(response, expecting: "request_uri") else {
            let error = OAuth2TokenEndpoint.error(from: response)
            guard error.code != .misconfigured else { throw error }
            let code = (error.underlying as? OAuth2Error)?.code ?? "no error code"
            throw AuthError(code: .authorizationFailed, message: "the provider refused the pushed authorization request (\(response.status.code), \(code))", status: response.status.code, underlying: error.underlying)
        }
        let answer: PushedAuthorizationResponse
        do {
            answer = try JSONDecoder().decode(PushedAuthorizationResponse.self, from: response.body)
        } catch {
            throw AuthError(code: .authorizationFailed, message: "the pushed authorization request's answer is not a request URI: \(DecodingFailure(error))", status: response.status.code)
        }
        guard !answer.requestURI.isEmpty, answer.requestURI.utf8.count <= 2048, answer.expiresIn > 0 else {
            throw AuthError(code: .authorizationFailed, message: "the pushed authorization request's answer has an empty or overlong request_uri, or no positive expires_in")
        }
        if let url = URL(string: answer.requestURI), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            guard Self.origin(of: url) == Self.origin(of: metadata.issuer) else {
                throw AuthError(code: .authorizationFailed, message: "the pushed authorization request's request_uri points to \(Self.origin(of: url)?.description ?? "another origin"), not to the issuer \(metadata.issuer.absoluteString): it is not this provider's")
            }
        }
        return (answer.requestURI, answer.expiresIn)
    }
}

extension OAuth2Client {
    /// The origin of `url`, nil without a scheme or host.
    static func origin(of url: URL) -> Origin? {
        guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
        return Origin(scheme: scheme, host: host, port: url.port)
    }
}

/// The answer of a pushed authorization request endpoint (RFC 9126 §2.2).
struct PushedAuthorizationResponse: Decodable {
    let requestURI: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey { case requestURI = "request_uri", expiresIn = "expires_in" }
}
