// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

extension SigV4Signature: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The header and query names whose values are hidden: ``SecretFieldNames/standard`` (which
    /// holds `X-Amz-Security-Token`, `X-Amz-Signature` and `Authorization`) and those marked on
    /// the request.
    private var secretNames: SecretFieldNames { SecretFieldNames.standard.union(request.options.secretFields) }

    /// The canonical request with the values of secret query items (the session token among
    /// them, when presigning) and secret header lines replaced by `<redacted>`.
    var redactedCanonicalRequest: String {
        let secrets = secretNames
        var lines = canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 3 else { return SecretRedaction.marker }
        lines[2] = SecretRedaction.query(lines[2], secrets: secrets)
        var index = 3
        while index < lines.count, !lines[index].isEmpty {
            lines[index] = SecretRedaction.headerLine(lines[index], secrets: secrets)
            index += 1
        }
        return lines.joined(separator: "\n")
    }

    /// The `Authorization` value with its signature replaced; empty for presigned requests.
    var redactedAuthorization: String {
        guard let mark = authorization.range(of: "Signature=") else { return authorization.isEmpty ? "" : SecretRedaction.marker }
        return authorization[..<mark.upperBound] + SecretRedaction.marker
    }

    /// Scope, signed headers and the request, never the signature, the session token or another
    /// secret: a signature lets whoever holds it replay the request (a presigned URL) until it
    /// expires, so it is redacted like the `Signature` and `X-Amz-Signature` fields.
    public var description: String {
        "SigV4Signature(credentialScope: \(credentialScope), signedHeaders: \(signedHeaders), signature: \(SecretRedaction.marker), request: \(request))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Every intermediate result, with the signature, the session token and other secret values
    /// redacted (the canonical request as `redactedCanonicalRequest`), so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "canonicalRequest": redactedCanonicalRequest,
            "stringToSign": stringToSign,
            "signature": SecretRedaction.marker,
            "signedHeaders": signedHeaders,
            "credentialScope": credentialScope,
            "authorization": redactedAuthorization,
            "request": request,
        ], displayStyle: .struct)
    }
}
