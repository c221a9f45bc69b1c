// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

extension AuthResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Status, header fields and body size, with the values of the header fields named in
    /// ``SecretFieldNames/standard`` (`Set-Cookie`, `WWW-Authenticate`, …) redacted; the body shows
    /// only its size.
    ///
    /// ```text
    /// AuthResponse(200 OK, headerFields: [Set-Cookie: <redacted>, Content-Type: application/json], body: 42 bytes)
    /// ```
    public var description: String {
        let fields = HTTPRedaction.fields(head.headerFields, secrets: .standard).joined(separator: ", ")
        return "AuthResponse(\(status), headerFields: [\(fields)], body: \(body.count) bytes)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Status, header fields and body size, redacted as ``description`` is, so `dump` shows no
    /// secret.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "status": status.code,
            "reasonPhrase": status.reasonPhrase,
            "headerFields": HTTPRedaction.fields(head.headerFields, secrets: .standard),
            "body": "\(body.count) bytes",
        ], displayStyle: .struct)
    }
}
