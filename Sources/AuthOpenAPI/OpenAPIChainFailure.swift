// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// An error that is not AuthKit's, thrown in a call of an adapter: by the rest of an OpenAPI
/// chain (a later middleware, or the OpenAPI transport), by a request body's stream, or by a
/// middleware or transport of the AuthKit client that reports failures its own way; the
/// `underlying` error of the `AuthError.transport` that ``AuthClientTransport`` and
/// ``AuthOpenAPIMiddleware`` report for it.
///
/// Its description names the error's type only: a transport's error may print the URL, query and
/// all (where an API key or a presigned signature can be), a body's may quote the body, and
/// AuthKit's errors never show a secret. The error itself is ``error``.
public struct OpenAPIChainFailure: Error, CustomStringConvertible, CustomReflectable {
    /// The error that was thrown (the generated client's `ClientError` unwrapped).
    public let error: any Error

    /// `OpenAPIChainFailure(<the error's type>)`.
    public var description: String { "OpenAPIChainFailure(\(type(of: error)))" }

    /// The error's type only, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: ["type": String(describing: type(of: error))]) }
}

extension OpenAPIChainFailure {
    /// `error`, thrown in a call of an adapter, as AuthKit reports it: `CancellationError` when
    /// the task was cancelled (a transport may report that its own way), an `AuthError` as it
    /// is, anything else `AuthError.transport` naming `source` and the error's type, over an
    /// ``OpenAPIChainFailure``.
    static func authError(_ error: any Error, from source: String) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? AuthError { return error }
        return AuthError.transport("\(source) failed (\(type(of: error)))", underlying: OpenAPIChainFailure(error: error))
    }
}
