// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

package import HTTPTypes
import Synchronization

/// A transport's own form of a response's header fields, which ``AuthResponse`` turns into
/// `HTTPFields` only when something reads its `head`.
///
/// Converting every field of every response (a name matched and a value validated each, then
/// appended through HTTPTypes' generic path) cost about 4,000 instructions a response over
/// AsyncHTTPClient, while the standard pipeline reads at most two fields of a successful one
/// (`Date`, the first response of each second, and `X-RateLimit-Remaining`, while something
/// follows the events), which `AuthResponse.headerValue(_:)` reads from here.
package protocol ResponseHeadSource: Sendable {
    /// Every field, in order, as `HTTPFields`.
    func headerFields() -> HTTPFields
    /// What `headerFields().value(name)` gives, without building the fields.
    func value(_ name: HTTPField.Name) -> String?
}

/// A response head built from its source once, by the first reader; copies of a response share it.
final class LazyResponseHead: Sendable {
    let source: any ResponseHeadSource
    private let status: HTTPResponse.Status
    private let built = Mutex<HTTPResponse?>(nil)

    init(source: any ResponseHeadSource, status: HTTPResponse.Status) {
        self.source = source
        self.status = status
    }

    /// The head, built on the first read (outside the lock; when two readers race, both get
    /// the first one stored).
    var head: HTTPResponse {
        if let head = built.withLock({ $0 }) { return head }
        let head = HTTPResponse(status: status, headerFields: source.headerFields())
        return built.withLock { built in
            if let built { return built }
            built = head
            return head
        }
    }
}
