// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import OpenAPIRuntime

extension ClientError {
    /// The error a generated client reports for `error`, an AuthKit error of operation
    /// `operationID`, with nothing else in it: a generated client passes a `ClientError` thrown
    /// by its transport or middleware on as it is, and one it builds itself prints the
    /// operation's input, request and base URL around the cause (about 700 characters for a
    /// plain `GET`, and a `logIn`'s password or an API key header with them).
    ///
    /// Its description reads `Client error - cause description: 'AuthKit: <code>', underlying
    /// error: <the AuthError>, operationID: <id>, operationInput: not shown, request: <nil>, …`.
    init(_ error: AuthError, operationID: String) {
        self.init(operationID: operationID, operationInput: NotShown(), causeDescription: "AuthKit: \(error.code)", underlyingError: error)
    }

    /// What a `ClientError` of AuthKit holds as the operation's input, which may hold secrets.
    private struct NotShown: Sendable, CustomStringConvertible {
        var description: String { "not shown" }
    }
}
