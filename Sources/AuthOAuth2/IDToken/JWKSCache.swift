// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import JWTKit
import Synchronization

/// A provider's signing keys (its JWKS): fetched on first use, again after ``lifetime``, and
/// again when a token names a key id the set lacks (the provider rotated), at most once per
/// ``refreshInterval``; one fetch at a time, whoever asks.
///
/// Only signature keys AuthKit can use are kept (`use: enc` and unknown key types are left out,
/// so one unusual key does not refuse the whole set). Each kept key has one algorithm: its `alg`,
/// or the one its type implies (EC P-256 → ES256, Ed25519 → EdDSA, RSA → RS256), so that a
/// token's header cannot choose another.
final class JWKSCache: Sendable {
    /// A fetched key set.
    struct KeySet: Sendable {
        /// A usable key: its one algorithm and jwt-kit's verifier for it.
        struct Key: Sendable {
            let algorithm: String
            let verifier: any JWTAlgorithm
        }
        /// The usable keys, by key id.
        let keys: [String: Key]
        /// The key id of the set's only key, when it has one key (a token may then name none).
        let soleKID: String?
        let fetchedAt: Date
    }

    /// How long a fetched set is used before it is fetched again.
    static let lifetime: TimeInterval = 86_400
    /// The least time between two fetches for unknown key ids.
    static let refreshInterval: TimeInterval = 60

    private let state = Mutex<(set: KeySet?, fetch: Task<KeySet, any Error>?, fetches: Int)>((nil, nil, 0))
    /// The bounds of a fetch: deadline, size, number of keys.
    let limits: AnswerLimits

    init(limits: AnswerLimits = AnswerLimits()) {
        self.limits = limits
    }

    /// How many times the keys were fetched.
    var fetches: Int { state.withLock { $0.fetches } }

    /// The keys: the cached set unless it is older than ``lifetime``.
    func current(from url: URL, transport: any Transport, now: Date) async throws -> KeySet {
        if let set = state.withLock({ $0.set }), now.timeIntervalSince(set.fetchedAt) < Self.lifetime { return set }
        return try await fetch(from: url, transport: transport, now: now)
    }

    /// A fresh set for an unknown key id; nil when the last fetch is more recent than
    /// ``refreshInterval`` (a stream of forged key ids does not become a stream of fetches).
    func refreshed(from url: URL, transport: any Transport, now: Date) async throws -> KeySet? {
        if let set = state.withLock({ $0.set }), now.timeIntervalSince(set.fetchedAt) < Self.refreshInterval { return nil }
        return try await fetch(from: url, transport: transport, now: now)
    }

    private func fetch(from url: URL, transport: any Transport, now: Date) async throws -> KeySet {
        let task = state.withLock { state in
            if let fetch = state.fetch { return fetch }
            let fetch = Task { [limits] in try await Self.load(from: url, transport: transport, limits: limits, now: now) }
            state.fetch = fetch
            return fetch
        }
        do {
            let set = try await task.value
            state.withLock { state in
                if state.fetch == task {
                    state.fetch = nil
                    state.set = set
                    state.fetches += 1
                }
            }
            return set
        } catch {
            state.withLock { if $0.fetch == task { $0.fetch = nil } }
            throw error
        }
    }

    private static func load(from url: URL, transport: any Transport, limits: AnswerLimits, now: Date) async throws -> KeySet {
        let response = try await transport.send(AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"]), within: limits, reading: "the provider's key set")
        guard response.status.code == 200 else {
            throw AuthError(code: .httpStatus, message: "the provider's keys at \(url.path) answered \(response.status.code)", status: response.status.code)
        }
        guard let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any], let listed = document["keys"] as? [[String: Any]] else {
            throw AuthError(code: .decoding, message: "the provider's keys at \(url.path) are not a JWK set")
        }
        guard listed.count <= limits.maxKeys else {
            throw AuthError(code: .responseTooLarge, message: "the provider's key set at \(url.path) holds \(listed.count) keys, more than \(limits.maxKeys)")
        }
        let usable = listed.filter { ($0["use"] as? String ?? "sig") == "sig" }
        var keys: [String: KeySet.Key] = [:]
        for var key in usable {
            guard let algorithm = algorithm(of: key) else { continue }
            let kid = key["kid"] as? String ?? (usable.count == 1 ? "authkit-sole-key" : nil)
            guard let kid else { continue }
            key["kid"] = kid
            key["alg"] = algorithm
            guard let verifier = await verifier(of: key, kid: kid, algorithm: algorithm) else { continue }
            keys[kid] = KeySet.Key(algorithm: algorithm, verifier: verifier)
        }
        return KeySet(keys: keys, soleKID: keys.count == 1 ? keys.keys.first : nil, fetchedAt: now)
    }

    /// jwt-kit's verifier of one JWK with its algorithm; nil for a key it cannot read.
    private static func verifier(of key: [String: Any], kid: String, algorithm: String) async -> (any JWTAlgorithm)? {
        guard let data = try? JSONSerialization.data(withJSONObject: key), let jwk = try? JSONDecoder().decode(JWK.self, from: data) else { return nil }
        let collection = JWTKeyCollection()
        guard (try? await collection.add(jwk: jwk)) != nil else { return nil }
        return try? await collection.getKey(for: JWKIdentifier(string: kid), alg: algorithm)
    }

    /// The algorithm a key is used with: its `alg` when AuthKit accepts it, or its type's.
    static func algorithm(of key: [String: Any]) -> String? {
        let implied: String? = switch (key["kty"] as? String, key["crv"] as? String) {
        case ("EC", "P-256"?): "ES256"
        case ("EC", "P-384"?): "ES384"
        case ("EC", "P-521"?): "ES512"
        case ("OKP", "Ed25519"?): "EdDSA"
        case ("RSA", _): "RS256"
        default: nil
        }
        guard let implied else { return nil }
        guard let named = key["alg"] as? String else { return implied }
        let family: Set<String> = implied == "RS256" ? ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"] : [implied]
        return family.contains(named) ? named : nil
    }
}
