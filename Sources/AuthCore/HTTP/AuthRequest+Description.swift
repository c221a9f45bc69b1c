// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

extension AuthRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The names whose values this request's description and mirror hide:
    /// ``SecretFieldNames/standard`` and the names marked on the request.
    private var redactedNames: SecretFieldNames { SecretFieldNames.standard.union(options.secretFields) }

    /// Method and target, with the values of secret query items and any user info redacted.
    private var redactedTarget: String {
        let path = HTTPRedaction.path(head.path ?? "", secrets: redactedNames)
        guard let scheme = head.scheme, let authority = head.authority else { return "\(head.method.rawValue) \(path)" }
        return "\(head.method.rawValue) \(scheme)://\(HTTPRedaction.authority(authority))\(path)"
    }

    /// The options that differ from the defaults, in a few words.
    private var optionsSummary: [String] {
        var parts: [String] = []
        if options.retryNonIdempotent { parts.append("retryNonIdempotent") }
        if let timeout = options.timeout { parts.append("timeout: \(timeout)") }
        let names = options.secretFields.headerNames.sorted() + options.secretFields.queryItemNames.sorted().map { "?\($0)" }
        if !names.isEmpty { parts.append("secretFields: \(names.joined(separator: ", "))") }
        return parts
    }

    /// Method, URL, header fields, body size and options, with every secret value redacted:
    /// header fields and query items named in ``SecretFieldNames/standard`` or marked on the request
    /// (``markSecret(header:)``, ``markSecret(queryItem:)``) show `<redacted>`, and the body
    /// shows only its size.
    ///
    /// ```text
    /// AuthRequest(GET https://api.example.com/me?api_key=<redacted>, headerFields: [Authorization: <redacted>], body: 0 bytes)
    /// ```
    public var description: String {
        let fields = HTTPRedaction.fields(head.headerFields, secrets: redactedNames).joined(separator: ", ")
        let options = optionsSummary
        return "AuthRequest(\(redactedTarget), headerFields: [\(fields)], body: \(body.count) bytes"
            + (options.isEmpty ? "" : ", options: [\(options.joined(separator: ", "))]") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Method, scheme, authority, path, header fields, body size and options, redacted as
    /// ``description`` is, so `dump` shows no secret.
    public var customMirror: Mirror {
        let secrets = redactedNames
        return Mirror(self, children: [
            "method": head.method.rawValue,
            "scheme": head.scheme ?? "",
            "authority": HTTPRedaction.authority(head.authority ?? ""),
            "path": HTTPRedaction.path(head.path ?? "", secrets: secrets),
            "headerFields": HTTPRedaction.fields(head.headerFields, secrets: secrets),
            "body": "\(body.count) bytes",
            "options": options,
        ], displayStyle: .struct)
    }
}
