// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

/// The user's browser in the interop tests of browser flows: follows a provider's redirects
/// (to the loopback listener at the end), and keeps the cookies each origin sets, as a browser
/// does: an OpenID provider knows its signed-in user by its session cookie (for a logout, a
/// step-up).
actor InteropBrowser {
    private let transport: any Transport
    private var cookies: [String: [String: String]] = [:]

    init(transport: any Transport) { self.transport = transport }

    /// Goes to `url` and follows redirects (ten at most); returns the last answer's status.
    @discardableResult
    func follow(_ url: URL) async throws -> Int {
        var next = url
        for _ in 0..<10 {
            let response = try await get(next)
            guard (300..<400).contains(response.status.code), let location = response.head.headerFields[.location],
                  let target = URL(string: location, relativeTo: next)?.absoluteURL else { return response.status.code }
            next = target
        }
        throw AuthError.invalidRequest("more than ten redirects from \(url.absoluteString)")
    }

    /// Goes to `url` without following a redirect; returns the status.
    func status(_ url: URL) async throws -> Int {
        try await get(url).status.code
    }

    /// Goes to `url`; returns the answer.
    func get(_ url: URL) async throws -> AuthResponse {
        let origin = "\(url.host ?? ""):\(url.port ?? 80)"
        var request = try AuthRequest(method: .get, url: url)
        if let jar = cookies[origin], !jar.isEmpty {
            request.head.headerFields[.cookie] = jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        let response = try await transport.send(request)
        for field in response.head.headerFields[values: .setCookie] {
            guard let pair = field.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(pair[pair.index(after: equals)...])
            if value.isEmpty || value == "\"\"" { cookies[origin, default: [:]][name] = nil } else { cookies[origin, default: [:]][name] = value }
        }
        return response
    }
}
