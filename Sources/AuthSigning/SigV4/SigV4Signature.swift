// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// A computed SigV4 signature with every intermediate result, for inspection and tests.
///
/// The properties hold the real values. Its `description`, `debugDescription` and `dump` redact
/// the signature, the session token (`X-Amz-Security-Token`) and every other secret header or
/// query value (see `SecretFieldNames`), in the canonical request and in the request alike.
public struct SigV4Signature: Sendable {
    /// The canonical request (task 1 of the SigV4 procedure).
    public let canonicalRequest: String
    /// The string to sign (task 2).
    public let stringToSign: String
    /// The lower-case hex signature (task 3).
    public let signature: String
    /// The signed header names, `;`-separated.
    public let signedHeaders: String
    /// `yyyymmdd/region/service/aws4_request`.
    public let credentialScope: String
    /// The `Authorization` value for header signing; empty for presigned requests.
    public let authorization: String
    /// The request as sent: headers (header signing) or query items (presigning) added.
    public let request: AuthRequest
}
