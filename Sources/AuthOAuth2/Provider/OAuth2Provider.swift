// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes
import Synchronization

/// An authorization server as a client sees it: its metadata, discovered once from the issuer
/// (RFC 8414, or OpenID Connect Discovery) and kept, or configured by hand.
///
/// Concurrent callers share one fetch. A fetch that failed is not kept: the next call tries
/// again. The metadata's `issuer` must be the issuer it was fetched for (RFC 8414 §3.3), so a
/// document served for another server is refused.
///
/// ```swift
/// let provider = OAuth2Provider(issuer: URL(string: "https://auth.example.com")!, transport: transport)
/// let tokenEndpoint = try await provider.metadata().tokenEndpoint
/// ```
public final class OAuth2Provider: Sendable {
    /// Where the metadata document of an issuer is published.
    public enum Discovery: Sendable, Equatable {
        /// RFC 8414: `/.well-known/oauth-authorization-server` inserted before the issuer's path.
        case authorizationServer
        /// OpenID Connect Discovery 1.0: `/.well-known/openid-configuration` after the issuer's path.
        case openIDConfiguration
    }

    private enum Source: Sendable {
        case configured(AuthorizationServerMetadata)
        case discovered(issuer: URL, discovery: Discovery, transport: any Transport, limits: AnswerLimits)
    }

    private let source: Source
    private let fetch = Mutex<Task<AuthorizationServerMetadata, any Error>?>(nil)

    /// A provider configured by hand, for a server that publishes no metadata.
    public init(metadata: AuthorizationServerMetadata) {
        source = .configured(metadata)
    }

    /// A provider whose metadata is discovered from `issuer` on first use.
    /// - Parameters:
    ///   - issuer: The issuer identifier (`https://auth.example.com`, or with a path for a tenant).
    ///   - discovery: Which well-known document to read.
    ///   - transport: Fetches the document (the plain transport, not an authenticated client).
    ///   - limits: The bounds of the document's answer; the defaults suit any real server.
    public init(issuer: URL, discovery: Discovery = .authorizationServer, transport: any Transport, limits: AnswerLimits = AnswerLimits()) {
        source = .discovered(issuer: issuer, discovery: discovery, transport: transport, limits: limits)
    }

    /// The issuer identifier the provider was created with.
    public var issuer: URL {
        switch source {
        case .configured(let metadata): metadata.issuer
        case .discovered(let issuer, _, _, _): issuer
        }
    }

    /// The server's metadata, fetched on the first call.
    /// - Throws: `AuthError` `.transport`, `.httpStatus` for an answer other than 200,
    ///   `.decoding` for a document that is not metadata, `.misconfigured` when the document
    ///   names another issuer.
    public func metadata() async throws -> AuthorizationServerMetadata {
        let (issuer, discovery, transport, limits): (URL, Discovery, any Transport, AnswerLimits)
        switch source {
        case .configured(let metadata):
            try Self.checkSchemes(metadata)
            return metadata
        case .discovered(let named, let how, let sender, let bounds):
            (issuer, discovery, transport, limits) = (named, how, sender, bounds)
        }
        let task = fetch.withLock { current in
            if let current { return current }
            let task = Task { try await Self.discover(issuer: issuer, discovery: discovery, transport: transport, limits: limits) }
            current = task
            return task
        }
        do {
            return try await task.value
        } catch {
            fetch.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }

    /// The URL of the metadata document of `issuer`.
    public static func wellKnownURL(issuer: URL, discovery: Discovery) -> URL {
        var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        switch discovery {
        case .authorizationServer: components.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
        case .openIDConfiguration: components.percentEncodedPath = path + "/.well-known/openid-configuration"
        }
        components.query = nil
        components.fragment = nil
        return components.url ?? issuer
    }

    private static func discover(issuer: URL, discovery: Discovery, transport: any Transport, limits: AnswerLimits) async throws -> AuthorizationServerMetadata {
        let url = wellKnownURL(issuer: issuer, discovery: discovery)
        let response = try await transport.send(AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"]), within: limits, reading: "the provider's metadata")
        let status = response.status.code
        guard status == 200 else {
            throw AuthError(code: .httpStatus, message: "the provider's metadata at \(url.path) answered \(status)", status: status, responseBody: Array(response.body))
        }
        let metadata: AuthorizationServerMetadata
        do {
            metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: response.body)
        } catch {
            throw AuthError(code: .decoding, message: "the provider's metadata is not a metadata document: \(DecodingFailure(error))", status: status)
        }
        guard sameIssuer(metadata.issuer, issuer) else {
            throw AuthError(code: .misconfigured, message: "the metadata at \(url.path) names the issuer \(metadata.issuer.absoluteString), not \(issuer.absoluteString) (RFC 8414 §3.3): it is not this provider's")
        }
        try checkSchemes(metadata)
        return metadata
    }

    /// Refuses metadata whose issuer or endpoints are plain http on a host other than loopback:
    /// client secrets, verifiers, refresh tokens and the signing keys would cross the network in
    /// clear (RFC 6749 §3.1, §3.2; RFC 8414 §2).
    static func checkSchemes(_ metadata: AuthorizationServerMetadata) throws {
        let named: [(String, URL?)] = [
            ("issuer", metadata.issuer), ("authorization_endpoint", metadata.authorizationEndpoint), ("token_endpoint", metadata.tokenEndpoint),
            ("revocation_endpoint", metadata.revocationEndpoint), ("introspection_endpoint", metadata.introspectionEndpoint),
            ("device_authorization_endpoint", metadata.deviceAuthorizationEndpoint), ("jwks_uri", metadata.jwksURI), ("userinfo_endpoint", metadata.userinfoEndpoint),
            ("pushed_authorization_request_endpoint", metadata.pushedAuthorizationRequestEndpoint), ("end_session_endpoint", metadata.endSessionEndpoint),
        ]
        for case let (name, url?) in named { try checkScheme(of: url, named: name) }
    }

    /// Refuses a URL from the provider that is not https, or http on a loopback host: an
    /// endpoint, or a page the user is sent to (a device grant's `verification_uri`), which a
    /// network attacker could otherwise replace.
    static func checkScheme(of url: URL, named name: String) throws {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && Origin.isLoopback(host: url.host?.lowercased() ?? "")) else {
            throw AuthError(code: .misconfigured, message: "the provider's \(name) is \(url.scheme ?? "no")-scheme \(url.host ?? ""): only https (or http on a loopback host) is used")
        }
    }

    /// Whether two issuer identifiers are the same, a trailing `/` aside.
    static func sameIssuer(_ a: URL, _ b: URL) -> Bool {
        func trimmed(_ url: URL) -> String {
            let text = url.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        return trimmed(a) == trimmed(b)
    }
}
