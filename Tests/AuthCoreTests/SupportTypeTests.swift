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

@Suite struct SupportTypeTests {
    @Test func inMemoryStoreConforms() async throws {
        let passed = try await CredentialStoreConformance.run { InMemoryCredentialStore() }
        #expect(passed == CredentialStoreConformance.checkNames)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
    ])
    func httpDatesParse(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "soon", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT", "06 Nov 1994"])
    func badHTTPDatesAreNil(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func httpDateFormatRoundTrips() {
        for seconds in [0.0, 784_111_777, 1_767_225_600, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date)
        }
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func eventsReachEveryObserver() async {
        let events = AuthEvents()
        let first = EventRecorder(events)
        let second = EventRecorder(events)
        #expect(events.observerCount == 2)
        events.emit(.renewed(alice))
        events.emit(.signedOut(alice))
        let a = await first.waitFor { $0.count == 2 }
        let b = await second.waitFor { $0.count == 2 }
        #expect(a == [.renewed(alice), .signedOut(alice)])
        #expect(b == a)
    }

    @Test func rateLimitObserverEmits() async throws {
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let clock = ManualClock()
        let transport = ClosureTransport { _ in
            AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "3", HTTPField.Name("X-RateLimit-Limit")!: "100", HTTPField.Name("X-RateLimit-Remaining")!: "0"])
        }
        _ = try await AuthClient(transport: transport, middlewares: [RateLimitObserver(events: events, account: alice, clock: clock)]).send(.get, apiURL)
        let seen = await recorder.waitFor { !$0.isEmpty }
        #expect(seen == [.rateLimited(RateLimitInfo(account: alice, origin: "https://api.example.com:443", status: 429, limit: 100, remaining: 0, retryAfter: 3))])
    }

    /// The rate-limit observer reads responses only while a stream follows the events: a stream
    /// that starts following after the client was made gets the next signal, and one that ends
    /// is no longer counted.
    @Test func rateLimitObserverSignalsWhoeverFollowsWhenTheyFollow() async throws {
        let events = AuthEvents()
        let client = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .tooManyRequests) }, middlewares: [RateLimitObserver(events: events)])
        _ = try await client.send(.get, apiURL)
        #expect(!events.hasObservers)
        var ended: AsyncStream<AuthEvent>? = events.stream()
        #expect(ended != nil && events.hasObservers && events.observerCount == 1)
        ended = nil
        #expect(!events.hasObservers && events.observerCount == 0)
        let recorder = EventRecorder(events)
        _ = try await client.send(.get, apiURL)
        let seen = await recorder.waitFor { !$0.isEmpty }
        #expect(seen == [.rateLimited(RateLimitInfo(origin: "https://api.example.com:443", status: 429))])
    }

    /// The system clock reads what `Date()` does, to the microsecond: its own reading of the
    /// real-time clock, in seconds and nanoseconds since 1970.
    @Test func systemClockReadsWhatDateDoes() {
        for _ in 0..<1_000 {
            let before = Date()
            let now = SystemClock().now()
            let after = Date()
            #expect(now.timeIntervalSince(before) > -1e-6 && after.timeIntervalSince(now) > -1e-6, "\(before.timeIntervalSince1970) \(now.timeIntervalSince1970) \(after.timeIntervalSince1970)")
        }
    }

    @Test func timeoutMiddlewareEndsSlowRequests() async throws {
        let slow = ClosureTransport { _ in try await Task.sleep(for: .seconds(30)); return AuthResponse(status: .ok) }
        let client = AuthClient(transport: slow, middlewares: [TimeoutMiddleware(timeout: .milliseconds(50))])
        await #expect { try await client.send(.get, apiURL) } throws: { ($0 as? AuthError)?.code == .timeout }
        let fast = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .ok) }, middlewares: [TimeoutMiddleware(timeout: .seconds(30))])
        #expect(try await fast.send(.get, apiURL).status == .ok)
    }

    @Test func headersMiddlewareAddsWithoutOverwriting() async throws {
        let transport = ClosureTransport { request in AuthResponse(status: .ok, body: Data("\(request.head.headerFields[.userAgent] ?? "")|\(request.head.headerFields[.deviceID] ?? "")".utf8)) }
        let middleware = HeadersMiddleware([.userAgent: "AuthKit/1"], dynamic: { _ in [.deviceID: "dev-1"] })
        let client = AuthClient(transport: transport, middlewares: [middleware])
        #expect(String(decoding: try await client.send(.get, apiURL).body, as: UTF8.self) == "AuthKit/1|dev-1")
        #expect(String(decoding: try await client.send(.get, apiURL, headerFields: [.userAgent: "mine"]).body, as: UTF8.self) == "mine|dev-1")
    }

    @Test func jsonConvenienceThrowsStatusAndBody() async throws {
        struct Me: Decodable { let id: Int }
        let client = AuthClient(transport: ClosureTransport { request in
            request.head.path == "/ok" ? AuthResponse(status: .ok, body: Data(#"{"id":7}"#.utf8)) : AuthResponse(status: .notFound, body: Data("missing".utf8))
        })
        #expect(try await client.json(Me.self, .get, URL(string: "https://api.example.com/ok")!).id == 7)
        await #expect { try await client.json(Me.self, .get, URL(string: "https://api.example.com/nope")!) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .httpStatus && error.status == 404 && error.responseBody == Array("missing".utf8)
        }
    }
}
