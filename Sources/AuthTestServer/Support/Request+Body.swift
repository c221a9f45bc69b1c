// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Hummingbird
import NIOCore

extension Request {
    /// The whole body as bytes, up to `limit` bytes.
    /// - Parameter limit: The largest body accepted.
    /// - Throws: An `HTTPError` (413) when the body is larger.
    public func collectData(upTo limit: Int = 1 << 20) async throws -> Data {
        let buffer = try await body.collect(upTo: limit)
        return Data(buffer.readableBytesView)
    }

    /// Decodes a JSON body; `nil` when the body is not valid JSON for `type`.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - limit: The largest body accepted.
    /// - Throws: An `HTTPError` (413) when the body is larger than `limit`.
    public func decodeJSON<T: Decodable>(_ type: T.Type, upTo limit: Int = 1 << 20) async throws -> T? {
        let data = try await collectData(upTo: limit)
        return try? JSONDecoder().decode(type, from: data)
    }

    /// The token of an `Authorization: Bearer <token>` header, if present.
    public var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Header fields as a dictionary with lower-cased names; repeated fields joined with ", ".
    ///
    /// `Host` travels as the request's authority in swift-http-types; it is listed as `host`.
    public var headerDictionary: [String: String] {
        var result: [String: String] = [:]
        if let authority = head.authority { result["host"] = authority }
        for field in headers {
            let name = field.name.canonicalName
            if let existing = result[name] {
                result[name] = existing + ", " + field.value
            } else {
                result[name] = field.value
            }
        }
        return result
    }
}
