// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthMFA
import Foundation
import HTTPTypes

extension SecretExhibit {
    /// AuthCookie: cookies, parsed `Set-Cookie`, the jar and its snapshot, the persisted jar,
    /// the session credential and strategy, a rejection error.
    static func cookies() async throws -> [SecretExhibit] {
        let m = marker
        let url = URL(string: "https://app.example.com/session")!
        let jars = CookieJars(configuration: .init(persistSessionCookies: true), now: { date })
        let jar = jars.jar(for: alice)
        let cookie = try jar.setCookie(fromHeaderValue: "sid=\(m)-session; Path=/; Secure; HttpOnly; Max-Age=600", for: url)
        try jar.setCookie(fromHeaderValue: "csrf_token=\(m)-csrf; Path=/", for: url)
        let store = InMemoryCredentialStore()
        let jarStore = jars.jarStore(for: alice, in: CredentialVault(store: store))
        try await jarStore.save(jar)
        let login = CookieSessionStrategy.Login(url: url)
        let strategy = CookieSessionStrategy(
            allowedHosts: AllowedHosts(["app.example.com"]), jar: jar, login: login, csrf: .init(),
            transport: ClosureTransport { _ in AuthResponse(status: .ok) }, jarStore: jarStore
        )
        var list = [
            SecretExhibit(cookie, [m]),
            SecretExhibit(SetCookie(parsing: "sid=\(m)-parsed; Domain=example.com")!, [m]),
            SecretExhibit(jar, [m], name: "CookieJar"),
            SecretExhibit(jar.snapshot(), [m]),
            SecretExhibit(jars, [m], name: "CookieJars"),
            SecretExhibit(jarStore, [m], name: "CookieJarStore"),
            SecretExhibit(CookieMiddleware(jar: jar, store: jarStore), [m]),
            SecretExhibit(strategy, [m]),
            SecretExhibit(CookieSessionCredential(username: "alice", password: "\(m)-password", establishedAt: date), [m]),
        ]
        do {
            try jar.setCookie(fromHeaderValue: "sid=\(m)-foreign; Domain=other.org", for: url)
        } catch {
            list.append(SecretExhibit(error, [m], name: "CookieError (foreign domain)"))
        }
        return list
    }

    /// AuthMFA: OTP secrets and generators, key URIs, recovery codes, the vaults, a code
    /// provider, a challenge, and the errors of bad input that holds a secret.
    static func mfa() async throws -> [SecretExhibit] {
        let m = marker
        let secretBytes = Array("\(m)-otp-secret-bytes".utf8)
        let secret = try OTPSecret(bytes: secretBytes)
        let totp = try TOTP(secret: secret)
        let uri = try OTPKeyURI(totp: totp, account: "alice@example.com", issuer: "Example")
        let base32 = secret.base32EncodedString()
        let codes = RecoveryCode.generate(count: 3)
        let codeTexts = codes.flatMap { [$0.normalized, $0.formatted] }
        let store = InMemoryCredentialStore()
        let vault = TOTPSecretVault(store: store)
        try await vault.save(totp, for: alice)
        let recovery = RecoveryCodeVault(store: store)
        let issued = try await recovery.regenerate(for: alice, count: 3)
        let issuedTexts = issued.flatMap { [$0.normalized, $0.formatted] }
        let provider = TOTPCodeProvider(totp: totp, now: { date })
        let signIn = PasswordSignIn(
            loginURL: URL(string: "https://auth.example.com/login")!, verifyURL: URL(string: "https://auth.example.com/mfa")!,
            transport: ClosureTransport { _ in AuthResponse(status: .ok) }, codeProvider: provider
        )
        let otpSecrets = [m, base32, uri.uriString]
        var list = [
            SecretExhibit(secret, otpSecrets, raw: [secretBytes]),
            SecretExhibit(totp, otpSecrets, raw: [secretBytes]),
            SecretExhibit(try HOTP(secret: secret), otpSecrets, raw: [secretBytes]),
            SecretExhibit(uri, otpSecrets, raw: [secretBytes]),
            SecretExhibit(codes[0], codeTexts),
            SecretExhibit(codes, codeTexts, name: "[RecoveryCode]"),
            SecretExhibit(RecoveryCodeSet(codes: codes), codeTexts),
            SecretExhibit(vault, otpSecrets, raw: [secretBytes]),
            SecretExhibit(recovery, issuedTexts, name: "RecoveryCodeVault"),
            SecretExhibit(TOTPVerifier(store: store), otpSecrets, raw: [secretBytes], name: "TOTPVerifier"),
            SecretExhibit(OTPReplayGuard(store: store), otpSecrets, raw: [secretBytes], name: "OTPReplayGuard"),
            SecretExhibit(provider, otpSecrets, raw: [secretBytes]),
            SecretExhibit(signIn, otpSecrets, raw: [secretBytes]),
            SecretExhibit(MFAChallenge(id: "\(m)-challenge", methods: [.totp], expiresAt: date), [m]),
        ]
        do {
            _ = try OTPKeyURI(parsing: "otpauth://totp/Example:alice?secret=\(m)-not-base32!&issuer=Example")
        } catch {
            list.append(SecretExhibit(error, [m], name: "MFAError (key URI, bad secret)"))
        }
        do {
            _ = try OTPSecret(base32: "\(m)!!")
        } catch {
            list.append(SecretExhibit(error, [m], name: "error of OTPSecret(base32:) (bad input)"))
        }
        do {
            _ = try Base32.decode("\(m)=9")
        } catch {
            list.append(SecretExhibit(error, [m], name: "MFAError (base32, bad input)"))
        }
        return list
    }
}
