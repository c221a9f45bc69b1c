// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthMigration
import Foundation
import HTTPTypes

extension SecretExhibit {
    /// AuthCache holding an authorized response and a credential record; AuthMigration's legacy
    /// sources, import results and errors.
    static func cacheAndMigration() async throws -> [SecretExhibit] {
        let m = marker
        let cache = ResponseCache()
        let middleware = CacheMiddleware(cache: cache, account: alice)
        let origin = ClosureTransport { _ in
            AuthResponse(
                status: .ok, headerFields: [.cacheControl: "private, max-age=60", .setCookie: "sid=\(m)-cached"],
                body: Data(#"{"token":"\#(m)-cached-body"}"#.utf8)
            )
        }
        let client = AuthClient(transport: origin, middlewares: [middleware])
        _ = try await client.send(.get, URL(string: "https://api.example.com/me")!, headerFields: [.authorization: "Bearer \(m)-bearer"])
        let credentials = CachingCredentialStore(InMemoryCredentialStore())
        try await CredentialVault(store: credentials).save(BearerTokenSet(accessToken: "\(m)-cached-access"), for: alice)

        let legacy = DictionaryKeyValueSource(["access_token": "\(m)-legacy-access", "refresh_token": "\(m)-legacy-refresh", "expires_at": "\(m)-not-a-date"])
        let store = InMemoryCredentialStore()
        try await store.put(Envelope(kind: "legacy", payload: Data("\(m)-legacy".utf8), updatedAt: date), for: alice.item("access_token"))
        let importer = LegacyImporter(vault: CredentialVault(store: InMemoryCredentialStore()))
        var list = [
            SecretExhibit(cache, [m], name: "ResponseCache"),
            SecretExhibit(middleware, [m]),
            SecretExhibit(client, [m], name: "AuthClient (with a response cache)"),
            SecretExhibit(credentials, [m], name: "CachingCredentialStore"),
            SecretExhibit(legacy, [m]),
            SecretExhibit(StoreKeyValueSource(store: store, account: alice), [m]),
            SecretExhibit(importer, [m]),
            SecretExhibit(
                SkippedRecord(key: alice.item("credential"), stage: .readingSource, reason: "unreadable", error: LeakyError()),
                [m], name: "SkippedRecord (of an error that quotes its input)"),
        ]
        do {
            _ = try await importer.importCredential(from: legacy, layout: .standard, into: alice)
        } catch {
            list.append(SecretExhibit(error, [m], name: "MigrationError (a malformed legacy value)"))
        }
        let valid = DictionaryKeyValueSource(["access_token": "\(m)-legacy-access", "refresh_token": "\(m)-legacy-refresh"])
        list.append(SecretExhibit(try await importer.importCredential(from: valid, layout: .standard, into: alice), [m]))
        return list
    }

    /// An error whose description quotes the input it failed on, as `DecodingError`s can.
    struct LeakyError: Error, CustomStringConvertible {
        var input = "\(SecretExhibit.marker)-input"
        var description: String { "cannot parse \(input)" }
    }
}
