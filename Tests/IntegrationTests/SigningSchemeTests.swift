// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthSigning
import AuthTestServer
import Crypto
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Each signing scheme through the AuthKit client (`container.useRequestSigner`) against the
/// server's signed endpoints.
@Suite struct SigningSchemeTests {
    /// A path with an encoded space and plus, and a query with repeated, empty, encoded and `+`
    /// items, so the server must see the request target exactly as the client signed it.
    static let trickyTarget = "items/a%20b%2Bc/d?z=last&a=x%2Fy&a=1&empty=&plus=1+2"

    @Test(arguments: SigningScheme.allCases)
    func eachSchemeIsVerifiedWithAndWithoutABody(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            let client = SigningFixture.client(h, signer: scheme.signer())
            let url = try #require(URL(string: "\(h.base.absoluteString)/signed/\(scheme.route)/\(Self.trickyTarget)"))

            let get = try await client.send(.get, url)
            let answer = try SignedAnswer.decode(get)
            #expect(get.status == .ok, "\(answer)")
            #expect(answer.ok == true)
            #expect(answer.key_id == scheme.keyID)
            // SigV4 sends the query in the spelling it signs (`+` is a literal plus: `%2B`); the
            // other schemes send the target as written.
            let signedTarget = scheme == .sigV4 ? Self.trickyTarget.replacingOccurrences(of: "1+2", with: "1%2B2") : Self.trickyTarget
            #expect(answer.path == "/signed/\(scheme.route)/\(signedTarget)")

            let put = try await client.send(.put, url, headerFields: [.contentType: "application/json"], body: Data(#"{"name":"döner","n":1}"#.utf8))
            #expect(put.status == .ok, "\(SignedAnswer.describe(put))")

            let counters = h.server.counters
            #expect(counters.count("signedAccepted.\(scheme.route)") == 2)
            #expect(counters.count("signedRejected") == 0)
        }
    }

    /// Two `Cookie` fields (what `headerFields[.cookie] = "a=1; b=2"` makes, and what a cookie
    /// jar adds) go out joined into one field: the signature covers that field as sent. SigV4
    /// signed `cookie:a=1,b=2` and RFC 9421 `a=1, b=2` for a wire `a=1; b=2`, and the server
    /// refused every such request.
    @Test(arguments: SigningScheme.allCases)
    func aRequestWithTwoCookiesIsVerified(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            let client = SigningFixture.client(h, signer: scheme.signer(covering: [.header("cookie")]))
            var fields = HTTPFields()
            fields[.cookie] = "theme=dark; lang=en"
            #expect(fields[values: .cookie].count == 2)
            let response = try await client.send(.get, h.url("signed/\(scheme.route)/with-cookies"), headerFields: fields)
            #expect(response.status == .ok, "\(SignedAnswer.describe(response))")
            #expect(h.server.counters.lastHeaders(path: "/signed/\(scheme.route)/with-cookies")["cookie"] == "theme=dark; lang=en")
        }
    }

    @Test(arguments: SigningScheme.allCases)
    func aRetryAfter503CarriesAFreshSignature(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            let sent = SentRequests()
            let container = h.container()
            sent.record(into: container, forwardingTo: h.transport)
            let client = SigningFixture.client(h, signer: scheme.signer(), container: container)
            let path = "/signed/\(scheme.route)/retried"
            // Faults answer before any route: the 503 attempt never reaches the verifier.
            h.server.faults.inject(.status(503), path: path, times: 1)

            let response = try await client.send(.get, h.url(String(path.dropFirst())))
            #expect(response.status == .ok, "\(SignedAnswer.describe(response))")
            #expect(h.server.counters.requests(path: path) == 2)
            #expect(h.server.counters.count("signedAccepted.\(scheme.route)") == 1)

            let attempts = sent.all
            try #require(attempts.count == 2)
            for attempt in attempts {
                // Each attempt carries exactly one signature: the stale one was removed first.
                for name in scheme.signatureFields {
                    #expect(attempt.head.headerFields[values: name].count == 1, "\(name) on an attempt")
                }
            }
            if let nonceField = scheme.freshnessField {
                #expect(attempts[0].head.headerFields[nonceField] != attempts[1].head.headerFields[nonceField])
            }
        }
    }

    @Test(arguments: SigningScheme.allCases)
    func aWrongKeyIsRefusedWithTheReasonAndNoKeyInTheAnswer(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            let wrongSecret = "a wrong secret the server must never echo"
            for (signer, expectedCode) in scheme.wrongSigners(secret: wrongSecret) {
                let client = SigningFixture.client(h, signer: signer)
                let response = try await client.send(.post, h.url("signed/\(scheme.route)/orders"), body: Data("amount=10".utf8))
                let answer = try SignedAnswer.decode(response)
                #expect(response.status == .unauthorized)
                #expect(answer.error == "invalid_signature")
                #expect(answer.code == expectedCode)
                #expect(answer.reason?.isEmpty == false)
                let text = String(decoding: response.body, as: UTF8.self)
                for secret in [wrongSecret, Data(wrongSecret.utf8).base64EncodedString()] + scheme.serverSecrets {
                    #expect(!text.contains(secret))
                }
            }
            #expect(h.server.counters.count("signedAccepted") == 0)
            #expect(h.server.counters.count("signedRejected.\(scheme.route)") == scheme.wrongSigners(secret: wrongSecret).count)
        }
    }

    @Test(arguments: SigningScheme.allCases)
    func aBodyChangedAfterSigningIsRefused(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            var request = try AuthRequest(method: .put, url: h.url("signed/\(scheme.route)/orders/7"), body: Data(#"{"amount":10}"#.utf8))
            try await scheme.signer().sign(&request, at: h.server.clock.now())
            request.body = Data(#"{"amount":99}"#.utf8)  // changed on the way

            let response = try await h.transport.send(request)
            let answer = try SignedAnswer.decode(response)
            #expect(response.status == .unauthorized)
            #expect(answer.code == scheme.tamperedBodyCode)
            #expect(h.server.counters.count("signedRejected.\(scheme.route)") == 1)
        }
    }
}

/// The schemes the server verifies, with the matching client signers.
enum SigningScheme: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case hmac, messageHMAC, messageEd25519, sigV4

    var testDescription: String { rawValue }

    /// The path segment after `/signed/`.
    var route: String {
        switch self {
        case .hmac: "hmac"
        case .messageHMAC, .messageEd25519: "rfc9421"
        case .sigV4: "sigv4"
        }
    }

    var keyID: String {
        switch self {
        case .hmac: SignedTestKeys.hmacKeyID
        case .messageHMAC: SignedTestKeys.messageHMACKeyID
        case .messageEd25519: SignedTestKeys.ed25519KeyID
        case .sigV4: SignedTestKeys.sigV4Credentials.accessKeyID
        }
    }

    /// A signer the server accepts (RFC 9421 covering `extra` components too).
    func signer(covering extra: [ComponentIdentifier] = []) -> any RequestSigner {
        switch self {
        case .hmac: HMACRequestSigner(keyID: keyID, key: SignedTestKeys.hmacSecret)
        case .messageHMAC: Self.messageSigner(keyID: keyID, key: .hmacSHA256(SignedTestKeys.messageHMACSecret), extra: extra)
        case .messageEd25519: Self.messageSigner(keyID: keyID, key: .ed25519(SignedTestKeys.ed25519PrivateKey), extra: extra)
        case .sigV4: SigV4Signer(credentials: SignedTestKeys.sigV4Credentials, configuration: SignedTestKeys.sigV4Configuration)
        }
    }

    static func messageSigner(keyID: String, key: MessageSigningKey, extra: [ComponentIdentifier] = []) -> HTTPMessageSigner {
        HTTPMessageSigner(
            keyID: keyID, key: key,
            components: [.method, .authority, .path, .query, .header("content-digest")] + extra,
            contentDigest: [.sha256]
        )
    }

    /// Signers with a wrong secret for the right key id, or an unknown key id, and the code the
    /// server answers each with.
    func wrongSigners(secret: String) -> [(any RequestSigner, String)] {
        let key = SymmetricKey(data: Data(secret.utf8))
        switch self {
        case .hmac:
            return [(HMACRequestSigner(keyID: keyID, key: key), "badSignature"), (HMACRequestSigner(keyID: "someone-else", key: key), "unknownKey")]
        case .messageHMAC:
            return [(Self.messageSigner(keyID: keyID, key: .hmacSHA256(key)), "badSignature"), (Self.messageSigner(keyID: "someone-else", key: .hmacSHA256(key)), "unknownKey")]
        case .messageEd25519:
            return [(Self.messageSigner(keyID: keyID, key: .ed25519(Curve25519.Signing.PrivateKey())), "badSignature")]
        case .sigV4:
            let known = SignedTestKeys.sigV4Credentials.accessKeyID
            return [
                (SigV4Signer(credentials: AWSCredentials(accessKeyID: known, secretAccessKey: secret), configuration: SignedTestKeys.sigV4Configuration), "badSignature"),
                (SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDSOMEONEELSE", secretAccessKey: secret), configuration: SignedTestKeys.sigV4Configuration), "unknownKey"),
            ]
        }
    }

    /// What the server answers for a body changed after signing.
    var tamperedBodyCode: String {
        switch self {
        case .hmac: "bodyDigestMismatch"
        case .messageHMAC, .messageEd25519: "contentDigestMismatch"
        case .sigV4: "badSignature"
        }
    }

    /// The fields that hold the signature.
    var signatureFields: [HTTPField.Name] {
        switch self {
        case .hmac: [HMACSigningConfiguration().signatureField, HMACSigningConfiguration().nonceField]
        case .messageHMAC, .messageEd25519: [HTTPMessageSigner.signatureInputField, HTTPMessageSigner.signatureField]
        case .sigV4: [.authorization]
        }
    }

    /// A field that differs on every signing (SigV4 has none within one second).
    var freshnessField: HTTPField.Name? {
        switch self {
        case .hmac: HMACSigningConfiguration().nonceField
        case .messageHMAC, .messageEd25519: HTTPMessageSigner.signatureInputField
        case .sigV4: nil
        }
    }

    /// Secret text of the server's keys that must never appear in an answer.
    var serverSecrets: [String] {
        [SignedTestKeys.sigV4Credentials.secretAccessKey]
            + [SignedTestKeys.hmacSecret, SignedTestKeys.messageHMACSecret].map { $0.withUnsafeBytes { Data($0).base64EncodedString() } }
    }
}

/// Clients for the signing tests.
enum SigningFixture {
    /// A client whose requests `signer` signs with the server's clock, and that holds no
    /// credential for the server's origin (so a 401 is returned as is, without a renewal).
    static func client(_ h: Harness, signer: any RequestSigner, container: AuthContainer? = nil) -> AccountClient<APIKeyHeaderStrategy> {
        let container = container ?? h.container()
        let clock = h.server.clock
        container.useRequestSigner(signer, allowedHosts: h.hosts, now: { clock.now() })
        return container.makeClient(for: AccountKey(namespace: "signing", account: "service"), strategy: APIKeyHeaderStrategy(allowedHosts: AllowedHosts([])))
    }
}

/// Every request the transport was asked to send, in order.
final class SentRequests: Sendable {
    private let requests = Mutex<[AuthRequest]>([])

    var all: [AuthRequest] { requests.withLock { $0 } }

    /// Makes `container` send through `transport`, recording each request.
    func record(into container: AuthContainer, forwardingTo transport: any Transport) {
        container.override(TransportKey.self, with: ClosureTransport { request in
            self.requests.withLock { $0.append(request) }
            return try await transport.send(request)
        })
    }
}

/// The signed endpoints' JSON answer (success, signature refusal or bearer refusal).
struct SignedAnswer: Decodable, CustomStringConvertible {
    let ok: Bool?
    let key_id: String?
    let scheme: String?
    let path: String?
    let username: String?
    let error: String?
    let code: String?
    let reason: String?

    static func decode(_ response: AuthResponse) throws -> SignedAnswer {
        try JSONDecoder().decode(SignedAnswer.self, from: response.body)
    }

    /// The answer's fields, or its raw body when it is not this JSON.
    static func describe(_ response: AuthResponse) -> String {
        (try? decode(response)).map(\.description) ?? "\(response.status.code): \(String(decoding: response.body, as: UTF8.self))"
    }

    var description: String {
        "ok: \(ok ?? false), key_id: \(key_id ?? "-"), error: \(error ?? "-"), code: \(code ?? "-"), reason: \(reason ?? "-")"
    }
}
