// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Endpoints that verify request signatures, with the keys of ``SignedTestKeys``:
///
/// - `/signed/hmac/**`: AuthKit's HMAC-SHA256 scheme (``HMACRequestVerifier``), timestamps
///   within 300 s of the server clock, nonces refused when replayed.
/// - `/signed/rfc9421/**`: RFC 9421 message signatures (HMAC-SHA256 and Ed25519 keys by
///   `keyid`) covering `@method`, `@authority`, `@path`, and `content-digest` when there is a
///   body; nonces refused when replayed.
/// - `/signed/sigv4/**`: AWS SigV4 in the `Authorization` field, signed again here and compared.
///
/// `/signed/hmac/me` and `/signed/rfc9421/me` also need a valid bearer token (and RFC 9421 must
/// then cover `authorization`), and name its user. Every method is accepted. A good signature
/// answers 200 `{"ok": true, "key_id": …}`; a bad one 401
/// `{"error": "invalid_signature", "code": …, "reason": …}`. Outcomes are counted as
/// `signedAccepted` / `signedRejected` (and `signedAccepted.<scheme>`…).
struct SignedRoutes: RouteGroup {
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
    /// Allowed clock difference for HMAC timestamps and `X-Amz-Date`, in seconds.
    static let tolerance: TimeInterval = 300

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let clock = environment.clock
        let now: @Sendable () -> Date = { clock.now() }
        // Replay memories live as long as this server instance.
        let hmacNonces = NonceCache(capacity: 10_000, retention: 2 * Self.tolerance)
        let messageNonces = NonceCache(capacity: 10_000, retention: 2 * Self.tolerance)

        let hmac = HMACRequestVerifier(tolerance: Self.tolerance, nonceCache: hmacNonces, now: now) { keyID in
            keyID == SignedTestKeys.hmacKeyID ? SignedTestKeys.hmacSecret : nil
        }
        add(router, scheme: "hmac", challenge: "HMAC-SHA256", environment: environment) { request, _ in
            do {
                return try await hmac.verify(request)
            } catch let error as SigningError {
                throw SignatureRejection(code: error.code.description, reason: error.message)
            }
        }

        add(router, scheme: "rfc9421", challenge: "Signature", environment: environment) { request, needsBearer in
            var required: [ComponentIdentifier] = [.method, .authority, .path]
            if !request.body.isEmpty { required.append(.header("content-digest")) }
            if needsBearer { required.append(.header("authorization")) }
            let verifier = HTTPMessageSignatureVerifier(
                policy: MessageVerificationPolicy(requiredComponents: required, maximumAge: Self.tolerance),
                nonceCache: messageNonces, now: now
            ) { keyID in SignedTestKeys.messageVerificationKey(for: keyID) }
            do {
                let signature = try await verifier.verify(request)
                guard case .string(let keyID)? = signature.parameters["keyid"] else {
                    throw SignatureRejection(code: "invalidParameter", reason: "the signature has no keyid")
                }
                return keyID
            } catch let error as SigningError {
                throw SignatureRejection(code: error.code.description, reason: error.message)
            }
        }

        let sigV4 = SignedSigV4Verifier(
            credentials: { $0 == SignedTestKeys.sigV4Credentials.accessKeyID ? SignedTestKeys.sigV4Credentials : nil },
            configuration: SignedTestKeys.sigV4Configuration, tolerance: Self.tolerance, now: now
        )
        add(router, scheme: "sigv4", challenge: SigV4Signer.algorithm, environment: environment) { request, _ in
            try sigV4.verify(request)
        }
    }

    /// Registers `/signed/<scheme>/**` for every method, verifying with `verify`, which returns
    /// the key id or throws a ``SignatureRejection``. Its second argument says whether the
    /// request is for the bearer-protected `/signed/<scheme>/me`.
    private func add(
        _ router: Router<BasicRequestContext>,
        scheme: String,
        challenge: String,
        environment: RouteEnvironment,
        verify: @escaping @Sendable (AuthRequest, Bool) async throws -> String
    ) {
        let limit = environment.configuration.maxBodySize
        let bearerPath = "/signed/\(scheme)/me"
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.collectData(upTo: limit)
            let received = SignedRequestCheck.authRequest(from: request, body: body)
            let needsBearer = scheme != "sigv4" && request.uri.path == bearerPath
            let keyID: String
            do {
                keyID = try await verify(received, needsBearer)
            } catch let rejection as SignatureRejection {
                SignedRequestCheck.count(accepted: false, scheme: scheme, environment: environment)
                environment.logger.debug("signature refused", metadata: ["scheme": .string(scheme), "code": .string(rejection.code)])
                return SignedRequestCheck.refused(rejection, scheme: scheme, challenge: challenge)
            }
            SignedRequestCheck.count(accepted: true, scheme: scheme, environment: environment)
            var accepted = SignedRequestCheck.Accepted(
                scheme: scheme, keyID: keyID, method: request.method.rawValue, path: request.head.path ?? "/"
            )
            if needsBearer {
                switch await environment.authenticate(request) {
                case .failure(let rejection):
                    return rejection.response
                case .success(let claims):
                    accepted.username = await environment.state.user(id: claims.sub)?.username
                }
            }
            return ServerResponse.json(.ok, accepted)
        }
        for path in ["/signed/\(scheme)", "/signed/\(scheme)/**"] {
            for method in Self.methods {
                router.on(.init(path), method: method, use: handler)
            }
        }
    }
}
