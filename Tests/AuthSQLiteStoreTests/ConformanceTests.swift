// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import AuthTesting
import Foundation
import Testing

@Suite struct ConformanceTests {
    @Test func passesTheCredentialStoreConformanceSuite() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let passed = try await CredentialStoreConformance.run {
                try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
            }
            #expect(passed == CredentialStoreConformance.checkNames)
        }
    }
}
