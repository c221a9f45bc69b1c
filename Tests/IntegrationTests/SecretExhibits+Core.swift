// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthOAuth2
import AuthSQLiteStore
import Foundation
import HTTPTypes

extension SecretExhibit {
    static let alice = AccountKey(namespace: "api", account: "alice")
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// A 32-byte key whose bytes spell the marker.
    static func keyBytes(_ tag: String) -> Data {
        Data("\(marker)-\(tag)-".padding(toLength: 32, withPad: "k", startingAt: 0).utf8)
    }

    /// AuthCore: credentials, token responses, the refresher's client secret, the cipher, the
    /// vault, requests, responses, errors, a client holding a credential.
    static func core() async throws -> [SecretExhibit] {
        let m = marker
        var list: [SecretExhibit] = [
            SecretExhibit(Secret("\(m)-secret"), [m]),
            SecretExhibit(BearerTokenSet(accessToken: "\(m)-access", refreshToken: "\(m)-refresh", expiresAt: nil, idToken: "\(m)-id"), [m]),
            SecretExhibit(APIKeyHeaderCredential(headerName: "X-Team-Token", key: "\(m)-header-key"), [m]),
            SecretExhibit(APIKeyQueryCredential(parameterName: "team_token", key: "\(m)-query-key"), [m]),
            SecretExhibit(BasicCredential(username: "alice", password: "\(m)-password"), [m]),
            SecretExhibit(GuestToken(token: "\(m)-guest", expiresAt: nil, deviceID: "device-1"), [m]),
            SecretExhibit(Envelope(kind: "bearer", payload: Data(#"{"accessToken":"\#(m)"}"#.utf8), updatedAt: date), [m]),
        ]
        let body = #"{"access_token":"\#(m)-a","token_type":"Bearer","expires_in":60,"refresh_token":"\#(m)-r","id_token":"\#(m)-i","scope":"read"}"#
        list.append(SecretExhibit(try TokenResponse.parse(Data(body.utf8)), [m]))
        do {
            _ = try TokenResponse.parse(Data(#"{"access_token":7,"refresh_token":"\#(m)-r"}"#.utf8))
        } catch {
            list.append(SecretExhibit(error, [m], name: "AuthError (token response not decodable)"))
        }
        list.append(SecretExhibit(
            AuthError(code: .httpStatus, message: "the server answered 401", account: alice, status: 401, responseBody: Array("token=\(m)".utf8)),
            [m], name: "AuthError (with a response body)"))

        let transport = ClosureTransport { _ in AuthResponse(status: .ok) }
        let tokenURL = URL(string: "https://auth.example.com/token")!
        for authentication in [OAuth2RefreshTokenRefresher.ClientAuthentication.clientSecretBasic(secret: Secret("\(m)-client")), .clientSecretPost(secret: Secret("\(m)-client"))] {
            let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: tokenURL, clientID: "cli", authentication: authentication, transport: transport)
            list.append(SecretExhibit(refresher, [m]))
            list.append(SecretExhibit(BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"]), refresher: refresher), [m]))
        }

        let cipher = try AESGCMCipher(key: keyBytes("aes"))
        list.append(SecretExhibit(cipher, [m]))
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, cipher: cipher)
        try await CredentialVault(store: store).save(BearerTokenSet(accessToken: "\(m)-stored"), for: alice)
        list.append(SecretExhibit(vault, [m]))
        list.append(SecretExhibit(store, [m], name: "InMemoryCredentialStore"))

        list += try requestsAndResponses()

        let container = AuthContainer()
        container.override(TransportKey.self, with: transport)
        let client = container.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "\(m)-client-access", refreshToken: "\(m)-client-refresh"))
        _ = try await client.send(.get, URL(string: "https://api.example.com/me")!)
        list.append(SecretExhibit(client, [m], name: "AccountClient<BearerStrategy>"))
        list.append(SecretExhibit(HeadersMiddleware([HTTPField.Name("X-API-Key")!: "\(m)-static-key"]), [m]))
        return list
    }

    /// Requests with every kind of secret on them, and a response that sets a cookie.
    static func requestsAndResponses() throws -> [SecretExhibit] {
        let m = marker
        var request = try AuthRequest(
            method: .post, url: URL(string: "https://api.example.com/v1/items?api_key=\(m)-query&page=2")!,
            body: Data(#"{"password":"\#(m)-body"}"#.utf8)
        )
        request.head.headerFields[.authorization] = "Bearer \(m)-bearer"
        request.head.headerFields[.cookie] = "sid=\(m)-cookie"
        request.head.headerFields[.accept] = "application/json"
        request.head.headerFields[HTTPField.Name("X-Custom-Secret")!] = "\(m)-custom"
        request.markSecret(header: "X-Custom-Secret")
        request.head.path = (request.head.path ?? "/") + "&custom_sig=\(m)-custom-query"
        request.markSecret(queryItem: "custom_sig")

        var authorized = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/v1/me?page=1")!)
        APIKeyHeaderCredential(headerName: "X-Team-Token", key: "\(m)-header-key").authorize(&authorized)
        APIKeyQueryCredential(parameterName: "team_token", key: "\(m)-query-key").authorize(&authorized)
        BasicCredential(username: "alice", password: "\(m)-password").authorize(&authorized)

        var userInfo = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/")!)
        userInfo.head.authority = "alice:\(m)-userinfo@api.example.com"

        let response = AuthResponse(
            status: .ok,
            headerFields: [.setCookie: "sid=\(m)-session; HttpOnly; Secure", .contentType: "application/json"],
            body: Data(#"{"access_token":"\#(m)-response"}"#.utf8)
        )
        return [
            SecretExhibit(request, [m], name: "AuthRequest (Authorization, Cookie, marked header and query item, api_key, body)"),
            SecretExhibit(authorized, [m], name: "AuthRequest (authorized by API-key and Basic credentials)"),
            SecretExhibit(userInfo, [m], name: "AuthRequest (user info in the authority)"),
            SecretExhibit(response, [m], name: "AuthResponse (Set-Cookie, body)"),
        ]
    }

    /// The stores, each holding a plain (unsealed) record with a token in it.
    static func stores() async throws -> [SecretExhibit] {
        let m = marker
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try FileCredentialStore(directory: folder.appendingPathComponent("files"))
        let sqlite = try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("credentials.sqlite").path)
        for store in [file, sqlite] as [any CredentialStore] {
            try await CredentialVault(store: store).save(BearerTokenSet(accessToken: "\(m)-stored"), for: alice)
            _ = try await store.get(alice.item(CredentialVault.credentialItem))
        }
        let list = [SecretExhibit(file, [m], name: "FileCredentialStore"), SecretExhibit(sqlite, [m], name: "SQLiteCredentialStore")]
        try await sqlite.close()
        return list
    }
}
