import AuthCore
import Foundation
import HTTPTypes
import JWTKit
import Synchronization

/// A provider's signing keys (its JWKS), fetched on first use and again, once per validation,
/// when a token names a key id the keys do not have (the provider rotated its keys).
final class JWKSCache: Sendable {
    /// A fetched key set: the keys, and the key ids it has.
    struct KeySet: Sendable {
        let keys: JWTKeyCollection
        let kids: Set<String>
    }

    private let state = Mutex<(keys: KeySet?, fetches: Int)>((nil, 0))

    /// How many times the keys were fetched.
    var fetches: Int { state.withLock { $0.fetches } }

    /// The keys, fetched from `url` when there are none yet or `refresh` is set.
    func keys(from url: URL, transport: any Transport, refresh: Bool) async throws -> KeySet {
        if !refresh, let keys = state.withLock({ $0.keys }) { return keys }
        let response = try await transport.send(AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"]))
        guard response.status.code == 200 else {
            throw AuthError(code: .httpStatus, message: "the provider's keys at \(url.path) answered \(response.status.code)", status: response.status.code)
        }
        struct Listing: Decodable {
            struct Key: Decodable { let kid: String? }
            let keys: [Key]
        }
        let collection = JWTKeyCollection()
        let keys: KeySet
        do {
            let listing = try JSONDecoder().decode(Listing.self, from: response.body)
            try await collection.add(jwksJSON: String(decoding: response.body, as: UTF8.self))
            keys = KeySet(keys: collection, kids: Set(listing.keys.compactMap(\.kid)))
        } catch {
            throw AuthError(code: .decoding, message: "the provider's keys at \(url.path) are not a JWK set: \(DecodingFailure(error))")
        }
        state.withLock {
            $0.keys = keys
            $0.fetches += 1
        }
        return keys
    }
}
