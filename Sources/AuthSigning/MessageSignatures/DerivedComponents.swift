// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

/// Values of the request-derived components of RFC 9421 §2.2.
enum DerivedComponents {
    static func value(
        _ component: ComponentIdentifier, parameters: StructuredField.Parameters, request: HTTPRequest
    ) throws(SigningError) -> String {
        let target = request.path ?? ""
        let (path, query) = CanonicalQuery.split(target: target)
        func require(_ value: String?, _ what: String) throws(SigningError) -> String {
            guard let value, !value.isEmpty else {
                throw SigningError(code: .componentNotFound, message: "the request has no \(what) for \(component.name)")
            }
            return value
        }
        switch component.name {
        case "@method":
            return request.method.rawValue
        case "@scheme":
            return try require(request.scheme, "scheme").lowercased()
        case "@authority":
            return normalizedAuthority(try require(request.authority, "authority"), scheme: request.scheme)
        case "@target-uri":
            // The scheme and authority as sent (lower case, no default port), as for `@authority`:
            // the verifier rebuilds the URI from the `Host` it received.
            let scheme = try require(request.scheme, "scheme")
            return "\(scheme.lowercased())://\(normalizedAuthority(try require(request.authority, "authority"), scheme: scheme))\(target.isEmpty ? "/" : target)"
        case "@request-target":
            return try require(request.path, "path")
        case "@path":
            return path.isEmpty ? "/" : String(path)
        case "@query":
            return "?" + (query.map(String.init) ?? "")
        case "@query-param":
            guard case .string(let name)? = parameters["name"] else {
                throw SigningError(code: .invalidComponent, message: "@query-param needs a string name parameter")
            }
            let matches = formPairs(query ?? "").filter { formEncode($0.name) == name }
            guard matches.count == 1, let match = matches.first else {
                throw SigningError(
                    code: .componentNotFound,
                    message: "the query has \(matches.isEmpty ? "no" : "more than one") parameter named \(name)"
                )
            }
            return formEncode(match.value)
        default:
            throw SigningError(code: .unsupportedComponent, message: "the derived component \(component.name) is not supported")
        }
    }

    /// Lower-cased authority without the scheme's default port (``Origin``'s table), for `http`
    /// and `https` only: an authority of any other scheme is only lower-cased.
    static func normalizedAuthority(_ authority: String, scheme: String?) -> String {
        let lowered = authority.lowercased()
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return lowered }
        let defaultPort = ":\(Origin.defaultPort(for: scheme))"
        return lowered.hasSuffix(defaultPort) ? String(lowered.dropLast(defaultPort.count)) : lowered
    }

    /// Query pairs decoded as `application/x-www-form-urlencoded` (`+` is a space).
    static func formPairs(_ query: some StringProtocol) -> [(name: String, value: String)] {
        CanonicalQuery.pairs(query.replacingOccurrences(of: "+", with: "%20"))
    }

    /// Percent-encodes all but ASCII alphanumerics and `*-._` (the URL standard's
    /// form-urlencoded set, with spaces as `%20`), as RFC 9421 §2.2.8 asks.
    static func formEncode(_ text: String) -> String {
        FormURLEncoding.encode(text, keeping: .form, spaceAs: .percent20)
    }
}
