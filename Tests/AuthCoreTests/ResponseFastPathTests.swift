// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// The shortcuts the pipeline takes on every request give what the general code gives.
@Suite struct ResponseFastPathTests {
    /// `urlForTransport()` writes the authority as it stands when it is already canonical; over
    /// generated authorities it equals the URL rebuilt from the parsed origin, and refuses
    /// exactly what the origin parser refuses.
    @Test func transportURLEqualsTheOneRebuiltFromTheOrigin() throws {
        var random = SeededRandom(seed: 2323)
        let schemes = ["http", "https", "ws", "wss", "HTTP", "Https", "ftp"]
        let hosts = ["example.com", "Example.com", "API.EXAMPLE.COM", "127.0.0.1", "[::1]", "[::A]", "[2001:db8::ff]", "[1.2.3.4]", "[beef]", "a_b-c.d~e", "ex%61mple.com", ""]
        let ports = ["", ":80", ":443", ":8080", ":08080", ":0", ":00", ":65535", ":65536", ":", ":1x"]
        for _ in 0..<2_000 {
            let scheme = schemes.randomElement(using: &random)!
            let authority = hosts.randomElement(using: &random)! + ports.randomElement(using: &random)!
            let request = AuthRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/p?q=1"))
            let expected = request.origin.flatMap { origin in
                ["http", "https", "ws", "wss"].contains(origin.scheme) ? "\(origin.scheme)://\(origin.hostField)/p?q=1" : nil
            }
            if let expected {
                #expect(try request.urlForTransport() == expected, "\(scheme) \(authority)")
            } else {
                #expect(throws: AuthError.self, "\(scheme) \(authority)") { try request.urlForTransport() }
            }
        }
    }

    /// The session reads a response's `Date` once per distinct value: the same value again (a
    /// stale copy from a shared cache) changes nothing, a new value is taken, text that is no
    /// date changes nothing.
    @Test func aRepeatedDateFieldIsNotReadAgain() async throws {
        let clock = ManualClock()
        let session = AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { $0 },
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
        let ahead = HTTPDate.format(clock.now().addingTimeInterval(100))
        session.observeServerDateField(ahead, sentAt: clock.now())
        #expect(session.clockSkew > 100 && session.clockSkew <= 101)
        // The same field a minute later (by the local clock): a stale copy, the estimate stays.
        clock.advance(by: 60)
        session.observeServerDateField(ahead, sentAt: clock.now())
        #expect(session.clockSkew > 100 && session.clockSkew <= 101)
        session.observeServerDateField(HTTPDate.format(clock.now().addingTimeInterval(200)), sentAt: clock.now())
        #expect(session.clockSkew > 200 && session.clockSkew <= 201)
        session.observeServerDateField("not a date", sentAt: clock.now())
        #expect(session.clockSkew > 200 && session.clockSkew <= 201)
    }

    /// `value(_:)` is the subscript's value: one field, several joined by `, `, cookies by `; `.
    @Test func fieldValueIsTheSubscriptsValue() throws {
        let custom = try #require(HTTPField.Name("X-Custom"))
        var fields: HTTPFields = [.date: "Sun, 06 Nov 1994 08:49:37 GMT", .contentType: "text/plain"]
        fields.append(HTTPField(name: custom, value: "a"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: custom, value: "b"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        for name in [HTTPField.Name.date, .contentType, custom, .cookie, .retryAfter] {
            #expect(fields.value(name) == fields[name], "\(name)")
        }
        #expect(fields.value(custom) == "a, b")
        #expect(fields.value(.cookie) == "a=1; b=2")
    }
}
