// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes RFC 9421 verification in AuthSigning with hostile headers. The input is six lines:
/// `Signature-Input`, `Signature`, method, URL (or path), `Content-Digest`, body (the rest).
///
/// 1. `HTTPMessageSignatureVerifier` verifies the request built from them, and a response
///    carrying the same fields for that request (for `;req` components): it must throw a
///    `SigningError`, never succeed (the key is secret) nor trap.
/// 2. The components of the first `Signature-Input` member are signed by `HTTPMessageSigner`
///    (merging into the hostile fields, with `Content-Digest` when covered) and verified with
///    the same key, nonce cache and clock. Contract: what the signer signs, the verifier accepts
///    (except a list covering `signature` or `signature-input`, which signing itself changes).
/// 3. `ContentDigest.verify` of the given field and body; contract: a digest made by
///    `ContentDigest.value` verifies.
import AuthCore
import AuthSigning
import Crypto
import Foundation
import FuzzSupport
import HTTPTypes

let secret = SymmetricKey(data: Data("fuzz-signing-key-0123456789abcdef".utf8))
let forgedKey = SymmetricKey(data: Data("a-different-key-the-attacker-lacks".utf8))
let lenient = MessageVerificationPolicy(requiresCreated: false, maximumAge: nil, tolerance: 60)

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = FuzzInput(data, size).fields(6).map { String(decoding: $0, as: UTF8.self) }
    let body = Data(parts[5].utf8)
    var head = requestHead(method: parts[2], target: parts[3])
    head.headerFields[HTTPMessageSigner.signatureInputField] = parts[0]
    head.headerFields[HTTPMessageSigner.signatureField] = parts[1]
    if !parts[4].isEmpty { head.headerFields[ContentDigest.fieldName] = parts[4] }
    head.headerFields[.contentType] = "application/json"
    let request = AuthRequest(head: head, body: body)

    // 1. Hostile signature, unknown secret.
    let verifier = HTTPMessageSignatureVerifier(policy: lenient, nonceCache: NonceCache(), now: { fixedNow }) { _ in .hmacSHA256(secret) }
    var responseFields = head.headerFields
    responseFields[.date] = "Wed, 01 May 2024 12:00:00 GMT"
    let response = AuthResponse(status: .ok, headerFields: responseFields, body: body)
    for outcome in [blocking { try await verifier.verify(request) }, blocking { try await verifier.verify(response, for: request) }] {
        switch outcome {
        case .success: fatalError("a hostile signature verified without the key")
        case .failure(let error):
            trace("hostile: \(error)")
            require(error is SigningError, "the verifier threw \(type(of: error)), not SigningError")
        }
    }

    // 2. Sign the hostile component list, then verify it.
    // Covering `signature` or `signature-input` cannot verify: signing rewrites those fields.
    if let components = componentList(parts[0]), !components.contains(where: { ["signature", "signature-input"].contains($0.name) }) {
        let coversDigest = components.contains { $0.name == "content-digest" }
        let signer = HTTPMessageSigner(
            label: "sig1", keyID: "fuzz-key", key: .hmacSHA256(secret), components: components,
            includesAlgorithm: true, validity: 300, tag: "fuzz",
            contentDigest: coversDigest ? [.sha256, .sha512] : [], nonce: { "nonce-1" })
        let signed = blocking { () async throws -> AuthRequest in
            var copy = request
            try await signer.sign(&copy, at: fixedNow)
            return copy
        }
        if case .success(let signedRequest) = signed {
            let own = HTTPMessageSignatureVerifier(
                policy: MessageVerificationPolicy(label: "sig1", requiredComponents: components, maximumAge: 300, requiredTag: "fuzz"),
                nonceCache: NonceCache(), now: { fixedNow }) { keyID in keyID == "fuzz-key" ? .hmacSHA256(secret) : nil }
            let verified = blocking { try await own.verify(signedRequest) }
            if case .failure(let error) = verified {
                fatalError("the verifier refuses what the signer signed (components \(components)): \(error)")
            }
            trace("signed and verified \(components)")
            let forged = HTTPMessageSignatureVerifier(policy: lenient, now: { fixedNow }) { _ in .hmacSHA256(forgedKey) }
            if case .success = blocking({ try await forged.verify(signedRequest) }) {
                fatalError("a signature verified with the wrong key")
            }
        } else if case .failure(let error) = signed {
            trace("sign failed: \(error)")
        }
    }

    // 3. Content-Digest.
    do { try ContentDigest.verify(parts[4], body: body) } catch { trace("digest: \(error)") }
    let made = ContentDigest.value(for: body, algorithms: [.sha256, .sha512])
    require((try? ContentDigest.verify(made, body: body)) != nil, "ContentDigest.value does not verify")
    return 0
}

/// A request head from hostile method and target text (`scheme://authority/path?query` or a path).
func requestHead(method: String, target: String) -> HTTPRequest {
    var scheme = "https", authority = "api.example.com", path = target.isEmpty ? "/" : target
    if let range = target.range(of: "://") {
        scheme = String(target[..<range.lowerBound])
        let rest = target[range.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        authority = String(rest[..<pathStart])
        path = rest[pathStart...].isEmpty ? "/" : String(rest[pathStart...])
    }
    return HTTPRequest(method: HTTPRequest.Method(method) ?? .post, scheme: scheme, authority: authority, path: path)
}

/// The components of the first member of a `Signature-Input` text, when it is an inner list of strings.
func componentList(_ text: String) -> [ComponentIdentifier]? {
    guard let first = (try? StructuredField.parseDictionary(text))?.entries.first,
          case .innerList(let list) = first.member
    else { return nil }
    var components: [ComponentIdentifier] = []
    for item in list.items {
        guard case .string(let name) = item.bareItem else { return nil }
        components.append(ComponentIdentifier(name, parameters: item.parameters))
    }
    return components
}
