// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import Foundation
import Testing

@Suite struct ContainerRegistrationTests {
    @Test func containerRegistrationUsesTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthFileStoreContainer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = AuthContainer()
        let store = try container.useFileStore(at: directory)
        let client = container.makeClient(for: AccountKey(namespace: "api", account: "bob"), strategy: APIKeyHeaderStrategy(allowedHosts: AllowedHosts(["api.example.com"])))
        try await client.signIn(APIKeyHeaderCredential(key: "k"))
        #expect(try await store.accounts(in: "api") == ["bob"])
        let reopened = try FileCredentialStore(directory: directory)
        #expect(try await CredentialVault(store: reopened).load(APIKeyHeaderCredential.self, for: AccountKey(namespace: "api", account: "bob"))?.key.reveal == "k")
    }
}
