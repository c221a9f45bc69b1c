// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation

/// The parameters of the redirect that ends an authorization (RFC 6749 §4.1.2 and §4.1.2.1,
/// RFC 9207 `iss`), read from the redirect URL's query with form decoding.
public struct AuthorizationResponse: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// `code`, when the user consented.
    public var code: String?
    /// `state`.
    public var state: String?
    /// `iss` (RFC 9207).
    public var issuer: String?
    /// The error, when the user or the provider refused.
    public var error: OAuth2Error?
    /// Parameters the redirect carries more than once (RFC 6749 §3.1 forbids it): such an
    /// answer is refused.
    public var repeatedParameters: [String] = []

    /// The same as ``description``: the code is a credential until it is exchanged.
    public var customMirror: Mirror {
        Mirror(self, children: ["code": code == nil ? "none" : "<redacted>", "issuer": issuer ?? "none", "error": error?.code ?? "none"], displayStyle: .struct)
    }

    /// Whether a code, the state and the issuer are there; never the code itself.
    public var description: String {
        "AuthorizationResponse(code: \(code == nil ? "none" : "<redacted>"), state: \(state == nil ? "none" : "present"), iss: \(issuer ?? "none"), error: \(error?.code ?? "none"))"
    }

    /// Reads the parameters of `redirect`.
    public init(redirect: URL) {
        var values: [String: String] = [:]
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        for item in FormURLEncoding.items(query) {
            let name = Self.formDecode(item.name)
            guard values[name] == nil else {
                if !repeatedParameters.contains(name) { repeatedParameters.append(name) }
                continue
            }
            values[name] = item.value.map(Self.formDecode) ?? ""
        }
        code = values["code"]
        state = values["state"]
        issuer = values["iss"]
        error = values["error"].map { OAuth2Error(code: $0, errorDescription: values["error_description"], errorURI: values["error_uri"]) }
    }

    /// A name or value decoded; when its escapes are malformed, the text with `+` as a space.
    static func formDecode(_ text: Substring) -> String {
        FormURLEncoding.decode(text) ?? text.replacingOccurrences(of: "+", with: " ")
    }
}
