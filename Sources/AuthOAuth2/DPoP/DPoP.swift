// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Crypto
public import Foundation
import HTTPTypes
import JWTKit
import Synchronization

/// Demonstrating Proof of Possession (RFC 9449) with one key: proofs for token requests and for
/// requests that carry a DPoP-bound token, and the servers' nonces (§8, §9) kept per origin.
///
/// A token obtained with DPoP is bound to the key's thumbprint; a thief who copies it from a
/// log or off the wire cannot use it without the private key. The key is kept in the vault
/// beside the tokens (sealed when a cipher is configured): a copy of the whole store carries
/// both, which a cipher whose key is kept elsewhere prevents. Give it to the token endpoint
/// (`OAuth2Client(dpop:)`, or ``ClientCredentialsStrategy``'s keyring) and to resource requests
/// (``DPoPMiddleware``).
///
/// ```swift
/// let dpop = try await DPoP(key: DPoPKey.forAccount(account, in: vault))
/// let proof = try await dpop.proof(method: "GET", url: URL(string: "https://api.example.com/me")!, accessToken: nil)
/// ```
public final class DPoP: TokenRequestBinding, CustomStringConvertible {
    /// The `DPoP` header field.
    public static let field = HTTPField.Name("DPoP")!
    /// The `DPoP-Nonce` header field.
    public static let nonceField = HTTPField.Name("DPoP-Nonce")!

    private let keys: JWTKeyCollection
    private let publicJWK: [String: JWTHeaderField]
    /// The key's RFC 7638 thumbprint (the `jkt` a bound token names).
    public let thumbprint: String
    private let nonces = Mutex<[String: String]>([:])
    private let now: @Sendable () -> Date

    /// Proofs signed with `key` (ES256).
    public init(key: DPoPKey, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        let privateKey = try key.privateKey()
        let x963 = privateKey.publicKey.x963Representation
        let x = Base64URL.encode(x963[1..<33]), y = Base64URL.encode(x963[33..<65])
        publicJWK = ["kty": .string("EC"), "crv": .string("P-256"), "x": .string(x), "y": .string(y)]
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        thumbprint = Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
        keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: privateKey))
        self.now = now
    }

    /// A proof for one request (RFC 9449 §4.2): `typ: dpop+jwt`, the public key in `jwk`, and
    /// `jti`, `htm`, `htu` (the URL without query and fragment), `iat`, the origin's nonce when
    /// it sent one, and `ath` (the access token's SHA-256) on a resource request.
    public func proof(method: String, url: URL, accessToken: String?) async throws -> String {
        var header = JWTHeader()
        header.typ = "dpop+jwt"
        header.alg = "ES256"
        header.jwk = publicJWK
        let claims = DPoPProofClaims(
            jti: PKCE.randomToken(16), htm: method, htu: Self.htu(url), iat: Int(now().timeIntervalSince1970),
            ath: accessToken.map { Base64URL.encode(SHA256.hash(data: Data($0.utf8))) },
            nonce: nonces.withLock { $0[Self.originKey(url)] })
        return try await keys.sign(claims, header: header)
    }

    /// Adds a fresh proof to a token endpoint request.
    public func bind(_ request: inout AuthRequest) async throws {
        guard let url = request.url else { throw AuthError.invalidRequest("a DPoP proof needs the request's URL") }
        request.head.headerFields[Self.field] = try await proof(method: request.head.method.rawValue, url: url, accessToken: nil)
        request.markSecret(header: "dpop")
    }

    /// Keeps the nonce the answer carries; true for a nonce challenge (`use_dpop_nonce` in a
    /// 400 body or a 401 `WWW-Authenticate`) that came with one.
    public func shouldRetry(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        guard let url = request.url else { return false }
        let nonce = response.head.headerFields[Self.nonceField]
        if let nonce { nonces.withLock { $0[Self.originKey(url)] = nonce } }
        guard nonce != nil else { return false }
        switch response.status.code {
        case 400: return (try? JSONDecoder().decode(OAuth2Error.self, from: response.body))?.code == "use_dpop_nonce"
        case 401: return response.head.headerFields[values: .wwwAuthenticate].contains { $0.contains("use_dpop_nonce") }
        default: return false
        }
    }

    /// `DPoP`: a token obtained with a proof must be bound.
    public var boundTokenType: String? { "DPoP" }

    /// The key's thumbprint; never the key.
    public var description: String { "DPoP(jkt \(thumbprint))" }

    /// The request URL as RFC 9449 §4.2 wants it: no query or fragment, scheme and host in lower
    /// case, no default port (RFC 3986 §6.2.2 and §6.2.3 normalization, which servers compare by).
    static func htu(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        let scheme = components.scheme?.lowercased()
        components.scheme = scheme
        components.host = components.host?.lowercased()
        if let port = components.port, port == Self.defaultPort(scheme) { components.port = nil }
        return components.string ?? url.absoluteString
    }

    /// The origin a nonce belongs to, normalized as ``htu(_:)``.
    static func originKey(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? defaultPort(scheme) ?? -1)"
    }

    /// The default port of a lower-case `http` or `https` scheme (``Origin``'s table); nil for
    /// any other scheme, `ws` and `wss` included.
    private static func defaultPort(_ scheme: String?) -> Int? {
        guard let scheme, scheme == "http" || scheme == "https" else { return nil }
        return Origin.defaultPort(for: scheme)
    }
}

/// The claims of a DPoP proof (RFC 9449 §4.2).
struct DPoPProofClaims: JWTPayload {
    let jti: String
    let htm: String
    let htu: String
    let iat: Int
    let ath: String?
    let nonce: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
