// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthTesting
import Foundation
import Testing

@Suite struct ConformanceTests {
    @Test func fileStorePassesTheCredentialStoreConformanceSuite() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            var count = 0
            let passed = try await CredentialStoreConformance.run {
                count += 1
                return try FileCredentialStore(directory: folder.appendingPathComponent("store\(count)"))
            }
            #expect(passed == CredentialStoreConformance.checkNames)
        }
    }

    @Test func recordsSurviveReopeningTheStore() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("store")
            let key = CredentialKey(namespace: "svc", account: "alice", item: "credential")
            let written = Envelope(
                formatVersion: 2, kind: "bearer", payload: Data([0, 1, 2, 255]),
                updatedAt: Date(timeIntervalSince1970: 1_700_000_000.123_456),
                expiresAt: Date(timeIntervalSince1970: 1_800_000_000.5))
            try await FileCredentialStore(directory: directory).put(written, for: key)

            let reopened = try FileCredentialStore(directory: directory)
            #expect(try await reopened.get(key) == written)
            #expect(try await reopened.namespaces() == ["svc"])
        }
    }
}
