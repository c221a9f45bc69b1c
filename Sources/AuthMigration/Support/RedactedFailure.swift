// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// A foreign error reduced to text that cannot quote stored values, so no secret leaks through it.
///
/// Errors of AuthKit's own types (whose texts are secret-free by contract) keep their description;
/// a `DecodingError` keeps its coding path; anything else keeps only its type name.
struct RedactedFailure: Error, CustomStringConvertible {
    let description: String

    /// The error itself when its text is known to be free of secrets, otherwise a redacted stand-in.
    static func wrap(_ error: any Error) -> any Error {
        switch error {
        case is MigrationError, is CredentialStoreError, is RedactedFailure, is CancellationError: return error
        default: return RedactedFailure(error)
        }
    }

    init(_ error: any Error) {
        switch error {
        case DecodingError.keyNotFound(let key, _): description = "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(let type, let context): description = "wrong type at '\(Self.path(context))', expected \(type)"
        case DecodingError.valueNotFound(_, let context): description = "missing value at '\(Self.path(context))'"
        case DecodingError.dataCorrupted(let context): description = "malformed data at '\(Self.path(context))'"
        default: description = "\(type(of: error)) (details withheld: they may quote stored values)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
