// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Testing

/// The shared `ErrorCode` pattern: codes compare, switch and print as the nested `Code` structs
/// they replaced did.
@Suite struct ErrorCodeTests {
    @Test func codesCompareSwitchAndPrintByName() {
        let error = AuthError(code: .storage, message: "the store is locked")
        #expect(error.code == .storage)
        #expect(error.code == AuthError.Code.storage)
        #expect(error.code != .transport)
        let retried: Bool
        switch error.code {
        case .transport, .timeout: retried = false
        case .storage: retried = true
        default: retried = false
        }
        #expect(retried)
        #expect(error.code.description == "storage")
        #expect("\(error)" == "AuthError.storage: the store is locked")
        #expect(Set([AuthError.Code.storage, .storage, .timeout]).count == 2)
    }

    @Test func eachErrorTypeHasItsOwnCodes() {
        let store = CredentialStoreError(code: .io, message: "disk full")
        #expect(store.code == .io)
        #expect(String(describing: store.code) == "io")
        let refusal = StoreDirectoryPolicy.Refusal.notADirectory(at: "/tmp/x")
        #expect(refusal.code == .notADirectory)
        // Same name, different error types: different types, so they cannot be mixed up.
        #expect(type(of: store.code) != type(of: refusal.code))
    }
}
