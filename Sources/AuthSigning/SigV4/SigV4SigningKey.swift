// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import Foundation

/// The SigV4 signing key derivation chain.
public enum SigV4SigningKey {
    /// Derives the signing key:
    /// `kDate = HMAC("AWS4" + secret, day)`, `kRegion = HMAC(kDate, region)`,
    /// `kService = HMAC(kRegion, service)`, `kSigning = HMAC(kService, "aws4_request")`,
    /// each HMAC-SHA256.
    /// - Parameters:
    ///   - secretAccessKey: The secret access key.
    ///   - day: The date part of the scope, `yyyymmdd`.
    ///   - region: The region.
    ///   - service: The service.
    public static func derive(secretAccessKey: String, day: String, region: String, service: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data(("AWS4" + secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }
}
