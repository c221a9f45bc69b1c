// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// An HTTP response with its whole body.
public struct AuthResponse: Sendable, Equatable {
    /// Status and header fields.
    ///
    /// A transport may hand over its own form of the fields, made into `HTTPFields` when this is
    /// first read.
    public var head: HTTPResponse {
        get {
            switch storedHead {
            case .built(let head): head
            case .lazy(let lazy): lazy.head
            }
        }
        set {
            storedHead = .built(newValue)
            status = newValue.status
        }
    }
    private var storedHead: StoredHead
    /// The body bytes.
    public var body: Data
    /// The response status. Kept beside `head` (whose `status` parses the `:status` field on
    /// every read) because several middlewares read it for every response.
    public private(set) var status: HTTPResponse.Status
    /// How a response cache in the pipeline answered, when one looked the request up; nil
    /// otherwise. Set by the cache, never parsed from the response.
    public var cacheOutcome: ResponseCacheOutcome?

    /// Creates a response from its parts.
    public init(head: HTTPResponse, body: Data = Data()) {
        storedHead = .built(head)
        self.body = body
        status = head.status
    }

    /// Creates a response with a status, header fields and body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = HTTPFields(), body: Data = Data()) {
        storedHead = .built(HTTPResponse(status: status, headerFields: headerFields))
        self.body = body
        self.status = status
    }

    /// Creates a response whose header fields stay in the transport's form until `head` is read.
    package init(status: HTTPResponse.Status, fields: any ResponseHeadSource, body: Data) {
        storedHead = .lazy(LazyResponseHead(source: fields, status: status))
        self.body = body
        self.status = status
    }

    /// The value of the header field `name`, as `head.headerFields` would give it: one field's
    /// value, or several joined by `, ` (`Cookie` by `; `); nil when absent. Read from the
    /// transport's form of the fields when `head` was not built.
    package func headerValue(_ name: HTTPField.Name) -> String? {
        switch storedHead {
        case .built(let head): head.headerFields.value(name)
        case .lazy(let lazy): lazy.source.value(name)
        }
    }

    /// Whether two responses have the same status, header fields, body and cache outcome.
    public static func == (lhs: AuthResponse, rhs: AuthResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.cacheOutcome == rhs.cacheOutcome && lhs.head == rhs.head
    }

    /// The head as built, or the source it is built from when first read.
    private enum StoredHead: Sendable {
        case built(HTTPResponse)
        case lazy(LazyResponseHead)
    }
}
