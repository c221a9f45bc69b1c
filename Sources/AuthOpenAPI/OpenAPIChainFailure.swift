// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What the rest of an OpenAPI chain (a later middleware, or the OpenAPI transport) threw, as the
/// `underlying` error of the `AuthError.transport` that ``AuthOpenAPIMiddleware`` reports.
///
/// Its description names the error's type only: a transport's error may print the URL, query and
/// all (where an API key or a presigned signature can be), and AuthKit's errors never show a
/// secret. The error itself is ``error``.
public struct OpenAPIChainFailure: Error, CustomStringConvertible, CustomReflectable {
    /// The error the chain threw (the generated client's `ClientError` unwrapped).
    public let error: any Error

    /// `OpenAPIChainFailure(<the error's type>)`.
    public var description: String { "OpenAPIChainFailure(\(type(of: error)))" }

    /// The error's type only, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: ["type": String(describing: type(of: error))]) }
}
