// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import OpenAPIRuntime

extension ClientError {
    /// The error a generated client reports for `error`, thrown in an adapter's call of
    /// operation `operationID`, with nothing else in it: a generated client passes a
    /// `ClientError` thrown by its transport or middleware on as it is, and one it builds itself
    /// (for any other error, a cancellation included) prints the operation's input, request and
    /// base URL around the cause (about 700 characters for a plain `GET`, and a `logIn`'s
    /// password or an API key header with them).
    ///
    /// Its `underlyingError` is `CancellationError` when the task was cancelled, else an
    /// `AuthError`: `error` itself, or `.transport` over an ``OpenAPIChainFailure`` for an error
    /// that is not AuthKit's (a request body's stream, a middleware's own). Its description reads
    /// `Client error - cause description: 'AuthKit: <code or cancelled>', underlying error:
    /// <the AuthError>, operationID: <id>, operationInput: not shown, request: <nil>, …`.
    init(adapting error: any Error, operationID: String) {
        let error = OpenAPIChainFailure.authError(error, from: "the call through AuthKit")
        let cause = (error as? AuthError).map { "\($0.code)" } ?? "cancelled"
        self.init(operationID: operationID, operationInput: NotShown(), causeDescription: "AuthKit: \(cause)", underlyingError: error)
    }

    /// What a `ClientError` of AuthKit holds as the operation's input, which may hold secrets.
    private struct NotShown: Sendable, CustomStringConvertible {
        var description: String { "not shown" }
    }
}
