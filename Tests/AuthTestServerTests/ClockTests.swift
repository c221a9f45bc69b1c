// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct ClockTests {
    @Test func advancingTheClockPastExpiryMakesMeAnswer401() async throws {
        let clock = ServerClock.fixed(at: Date(timeIntervalSince1970: 2_000_000_000))
        try await withServer(.init(clock: clock)) { _, http in
            let access = try await http.signUp("alice").string("access_token")
            #expect(try await http.get("/me", bearer: access).status == 200)

            clock.advance(by: 299)
            #expect(try await http.get("/me", bearer: access).status == 200)

            clock.advance(by: 2)
            let expired = try await http.get("/me", bearer: access)
            #expect(expired.status == 401)
            #expect(expired.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        }
    }

    @Test func dateHeaderFollowsTheServerClock() async throws {
        let start = try #require(ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z"))
        let clock = ServerClock.fixed(at: start)
        try await withServer(.init(clock: clock)) { _, http in
            let first = try await http.get("/echo")
            #expect(first.header("Date") == "Tue, 01 Jan 2030 00:00:00 GMT")

            clock.advance(by: 90_061)
            let later = try await http.get("/echo")
            let header = try #require(later.header("Date"))
            #expect(header == "Wed, 02 Jan 2030 01:01:01 GMT")
            #expect(HTTPDate.parse(header) == start.addingTimeInterval(90_061))
        }
    }

    @Test func tokensCarryTheClocksTimes() async throws {
        let start = try #require(ISO8601DateFormatter().date(from: "2031-06-15T12:00:00Z"))
        let clock = ServerClock.fixed(at: start)
        let signer = JWTSigner.random()
        try await withServer(.init(lifetimes: .init(access: 120), clock: clock, signer: signer)) { _, http in
            let login = try await http.signUp("bob")
            #expect(login["expires_in"] as? Int == 120)
            let claims = try signer.verify(login.string("access_token"))
            #expect(claims.iat == Int(start.timeIntervalSince1970))
            #expect(claims.exp == claims.iat + 120)
            #expect(!claims.fam.isEmpty && !claims.jti.isEmpty)
        }
    }

    @Test func setMovesTheClockToAGivenTime() {
        let clock = ServerClock(base: { Date(timeIntervalSince1970: 1_000) })
        #expect(clock.now() == Date(timeIntervalSince1970: 1_000))
        clock.set(Date(timeIntervalSince1970: 5_000))
        #expect(clock.now() == Date(timeIntervalSince1970: 5_000))
        clock.advance(by: -500)
        #expect(clock.now() == Date(timeIntervalSince1970: 4_500))
    }

    @Test func httpDateRoundTripsAndRejectsOtherFormats() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("garbage") == nil)
    }
}
