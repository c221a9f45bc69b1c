// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing
@testable import AuthCookie

@Suite struct CookiePersistenceTests {
    let clock = TestClock()
    let account = AccountKey(namespace: "api.example.com", account: "alice")
    let origin = url("https://example.com/")

    func filledJar(_ configuration: CookieJarConfiguration = .init()) throws -> CookieJar {
        let jar = CookieJar(configuration: configuration, now: clock.now)
        try jar.setCookie(fromHeaderValue: "sid=abc; Max-Age=3600; Secure; HttpOnly; SameSite=Lax", for: origin)
        clock.advance(by: 1)
        try jar.setCookie(fromHeaderValue: "pref=dark; Domain=example.com; Path=/app; Expires=Fri, 01 Jan 2100 00:00:00 GMT", for: origin)
        clock.advance(by: 1)
        try jar.setCookie(fromHeaderValue: "session=tmp", for: origin)
        return jar
    }

    @Test func jarSurvivesAReloadWithoutSessionCookies() async throws {
        let store = InMemoryCredentialStore()
        let jar = try filledJar()
        try await CookieJarStore(store: store, account: account).save(jar)

        let reloaded = try await CookieJarStore(store: store, account: account).loadJar(now: clock.now)
        #expect(reloaded.allCookies == jar.allCookies.filter(\.isPersistent))
        #expect(reloaded.allCookies.map(\.name) == ["sid", "pref"])
        #expect(reloaded.cookieHeader(for: url("https://example.com/app/x")) == "pref=dark; sid=abc")
    }

    @Test func sessionCookiesAreSavedWhenConfigured() async throws {
        let store = InMemoryCredentialStore()
        let configuration = CookieJarConfiguration(persistSessionCookies: true)
        let jar = try filledJar(configuration)
        let jarStore = CookieJarStore(store: store, account: account)
        try await jarStore.save(jar)
        let reloaded = try await jarStore.loadJar(configuration: configuration, now: clock.now)
        #expect(reloaded.allCookies == jar.allCookies)
        #expect(reloaded.allCookies.map(\.name) == ["sid", "pref", "session"])
        // The record is where the contract says, and names no value in its description.
        let envelope = try #require(try await store.get(account.item("cookies")))
        #expect(envelope.kind == "cookie-jar")
        #expect(envelope.expiresAt == nil)  // a session cookie keeps the record open-ended
        #expect(!envelope.description.contains("abc"))
    }

    @Test func expiredCookiesAreNotRestored() async throws {
        let store = InMemoryCredentialStore()
        let jarStore = CookieJarStore(store: store, account: account)
        try await jarStore.save(try filledJar())
        clock.advance(by: 7200)  // sid (1 h) has expired by now
        let reloaded = try await jarStore.loadJar(now: clock.now)
        #expect(reloaded.allCookies.map(\.name) == ["pref"])
    }

    @Test func loadingIntoAJarReplacesItsContentsAndNothingSavedLeavesItAlone() async throws {
        let store = InMemoryCredentialStore()
        let jarStore = CookieJarStore(store: store, account: account)
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["local=1"], for: origin)
        try await jarStore.load(into: jar)
        #expect(jar.allCookies.map(\.name) == ["local"])
        try await jarStore.save(try filledJar())
        try await jarStore.load(into: jar)
        #expect(jar.allCookies.map(\.name) == ["sid", "pref"])
    }

    @Test func accountsHaveSeparateJars() async throws {
        let store = InMemoryCredentialStore()
        try await CookieJarStore(store: store, account: account).save(try filledJar())
        let bob = CookieJarStore(store: store, account: AccountKey(namespace: account.namespace, account: "bob"))
        #expect(try await bob.loadJar(now: clock.now).allCookies.isEmpty)
    }

    @Test func corruptedRecordIsReportedAndLeftInPlace() async throws {
        let store = InMemoryCredentialStore()
        let jarStore = CookieJarStore(store: store, account: account)
        let garbage = Envelope(kind: "cookie-jar", payload: Data("{\"cookies\": [{\"name\": \"sid\", \"value\": \"topsecret\"}]}".utf8), updatedAt: clock.date)
        try await store.put(garbage, for: jarStore.key)
        do {
            _ = try await jarStore.loadJar(now: clock.now)
            Issue.record("a corrupted record loaded")
        } catch let error as CredentialStoreError {
            #expect(error.code == .corrupted)
            #expect(!String(describing: error).contains("topsecret"))
        }
        #expect(try await store.get(jarStore.key) == garbage)

        let newer = Envelope(formatVersion: 9, kind: "cookie-jar", payload: Data("{}".utf8), updatedAt: clock.date)
        try await store.put(newer, for: jarStore.key)
        await #expect(throws: CredentialStoreError.self) { try await jarStore.loadSnapshot() }
    }

    @Test func snapshotRoundTripsThroughJSON() throws {
        let jar = try filledJar(.init(persistSessionCookies: true))
        let data = try JSONEncoder().encode(jar.snapshot())
        let decoded = try JSONDecoder().decode(CookieJarSnapshot.self, from: data)
        #expect(CookieJar(snapshot: decoded, now: clock.now).allCookies == jar.allCookies)
    }
}
