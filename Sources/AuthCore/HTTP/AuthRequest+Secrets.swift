// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

extension AuthRequest {
    /// Marks as secret every header field and query item of this request that `original` did
    /// not have with the same value: what a signer or another credential-bearing step just wrote.
    ///
    /// A redirect to another origin then drops all of it, and logs redact it, whatever names the
    /// step chose (see ``RedirectMiddleware``).
    ///
    /// ```swift
    /// var signed = request
    /// try await signer.sign(&signed, at: Date())
    /// signed.markSecretsAdded(since: request)
    /// ```
    public mutating func markSecretsAdded(since original: AuthRequest) {
        for field in head.headerFields where !original.head.headerFields[values: field.name].contains(field.value) {
            markSecret(header: field.name.canonicalName)
        }
        let path = head.path ?? "", before = original.head.path ?? ""
        guard path != before else { return }
        let old = Set(QueryItems.split(before).items)
        for item in QueryItems.split(path).items where !old.contains(item) {
            markSecret(queryItem: QueryItems.name(of: item))
        }
    }
}

extension AuthRequest {
    /// This request without the header fields and query items that `write` puts on a request to
    /// the same origin, where they hold the same values.
    ///
    /// What a credential-bearing step does for an origin it must not reach: its secret may
    /// already be on the request without its doing (a server echoed an API key into the
    /// `Location` of a redirect to another origin), and it takes it off again.
    public func removingWrites(of write: (inout AuthRequest) -> Void) -> AuthRequest {
        var probe = AuthRequest(head: HTTPRequest(method: head.method, scheme: head.scheme, authority: head.authority, path: "/"))
        write(&probe)
        var result = self
        let fields = probe.head.headerFields
        if !fields.isEmpty {
            result.head.headerFields = HTTPFields(head.headerFields.filter { field in
                !fields.contains { $0.name == field.name && $0.value == field.value }
            })
        }
        // Compared decoded, the name in any case: a server that echoes a key may escape it its
        // own way (`%2f` for `%2F`, a `/` left as it is) or change the name's case.
        let written = QueryItems.split(probe.head.path ?? "/").items.map(QueryItems.decoded)
        if !written.isEmpty, let path = head.path {
            let (base, present) = QueryItems.split(path)
            result.head.path = QueryItems.join(base, present.filter { item in
                let (name, value) = QueryItems.decoded(item)
                return !written.contains { $0.name.lowercased() == name.lowercased() && $0.value == value }
            })
        }
        return result
    }
}
