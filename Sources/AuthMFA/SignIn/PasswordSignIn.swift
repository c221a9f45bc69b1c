// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// Signs in with a user name and password, finishing a multi-factor challenge when the server
/// asks for one.
///
/// The login endpoint answers either a token response or
/// `{"mfa_required": true, "challenge_id": …, "methods": [...], "expires_in": …}`; the code
/// provider then supplies a code (typed by the user, or generated from a TOTP secret in the
/// vault for unattended sign-in), which is posted to the verify endpoint as
/// `{"challenge_id", "method", "code"}`. A refused code (401 `invalid_code`) asks the provider
/// again, up to ``maxAttempts``.
///
/// The challenge's `expiresAt` is on the server's clock (its `Date` header plus `expires_in`),
/// like the time at which a TOTP code must be computed; the flow corrects its own clock by the
/// skew it observed before it checks the expiry.
///
/// ```swift
/// let signIn = PasswordSignIn(loginURL: base.appending(path: "auth/login"), verifyURL: base.appending(path: "auth/mfa/verify"),
///                             transport: transport, codeProvider: TOTPCodeProvider(vault: secrets, account: alice))
/// try await client.signIn(try await signIn.signIn(username: "alice", password: password))
/// ```
public struct PasswordSignIn: Sendable {
    /// The password login endpoint.
    public let loginURL: URL
    /// The challenge verification endpoint.
    public let verifyURL: URL
    /// Codes offered to the verify endpoint before giving up (default 3).
    public let maxAttempts: Int
    private let transport: any Transport
    private let codeProvider: (any MFACodeProvider)?
    private let preferredMethods: [MFAMethod]
    private let clock: any AuthClock

    /// Creates a sign-in flow.
    /// - Parameters:
    ///   - loginURL: The password login endpoint.
    ///   - verifyURL: The challenge verification endpoint.
    ///   - transport: Sends the two requests (no credential is attached).
    ///   - codeProvider: Answers challenges; without one, a challenge is an `MFAError.noMethodAvailable`.
    ///   - preferredMethods: The methods this client can answer, most preferred first; the
    ///     first one the challenge offers is used.
    ///   - maxAttempts: Codes offered before ``MFAError`` `.attemptsExhausted` (at least 1).
    ///   - clock: The local clock.
    public init(loginURL: URL, verifyURL: URL, transport: any Transport, codeProvider: (any MFACodeProvider)? = nil, preferredMethods: [MFAMethod] = [.totp, .recoveryCode], maxAttempts: Int = 3, clock: any AuthClock = SystemClock()) {
        self.loginURL = loginURL
        self.verifyURL = verifyURL
        self.transport = transport
        self.codeProvider = codeProvider
        self.preferredMethods = preferredMethods
        self.maxAttempts = max(1, maxAttempts)
        self.clock = clock
    }

    /// Signs in and returns the tokens.
    /// - Throws: `AuthError.invalidCredentials` for a refused user name or password;
    ///   ``MFAError`` `.expiredChallenge` (sign in again), `.attemptsExhausted` (every code was
    ///   refused, the code provider gave again a code the server had refused, which is not sent
    ///   twice, or the server locked the second factor after too many wrong codes),
    ///   `.noMethodAvailable`; what the code provider throws; `AuthError` for transport and
    ///   decoding failures and unexpected statuses (`.httpStatus`).
    public func signIn(username: String, password: String) async throws -> BearerTokenSet {
        // Without a `Date` field, the answer counts as issued when the request was sent (no later
        // than the truth, so a slow answer shortens lifetimes rather than lengthening them).
        let sent = clock.now()
        let response = try await post(loginURL, ["username": username, "password": password])
        let received = clock.now()
        let dated = response.head.headerFields[.date].flatMap(HTTPDate.parse)
        let issued = TokenResponse.issuedAt(response, sent: sent, received: received)
        guard (200..<300).contains(response.status.code) else {
            if response.status == .unauthorized { throw AuthError(code: .invalidCredentials, message: "the server refused the user name or password") }
            throw Self.unexpected(response, endpoint: "login")
        }
        guard let challenge = try LoginAnswer.challenge(in: response.body, now: issued) else {
            return try TokenResponse.parse(response.body).tokenSet(issuedAt: issued)
        }
        return try await answer(challenge, skew: dated.map { $0.timeIntervalSince(received) } ?? 0)
    }

    /// Answers `challenge`; `skew` is the server's clock minus ours.
    private func answer(_ challenge: MFAChallenge, skew: TimeInterval) async throws -> BearerTokenSet {
        guard let codeProvider else { throw MFAError.noMethodAvailable(offered: challenge.methods) }
        guard let method = preferredMethods.first(where: challenge.methods.contains) else {
            throw MFAError.noMethodAvailable(offered: challenge.methods)
        }
        var refused: Set<String> = []
        for _ in 0..<maxAttempts {
            guard !challenge.isExpired(at: clock.now().addingTimeInterval(skew)) else { throw MFAError.expiredChallenge() }
            let code = try await codeProvider.code(for: challenge, method: method)
            // A code the server refused is refused again (a time-based code within its step, a
            // code used once already); sending it would only count towards the server's lockout.
            guard !refused.contains(code) else {
                throw MFAError(code: .attemptsExhausted, message: "the code provider gave again a code the server had refused; not sent (it would count towards the lockout)")
            }
            let sent = clock.now()
            let response = try await post(verifyURL, ["challenge_id": challenge.id, "method": method.rawValue, "code": code])
            if (200..<300).contains(response.status.code) {
                let issued = TokenResponse.issuedAt(response, sent: sent, received: clock.now())
                return try TokenResponse.parse(response.body).tokenSet(issuedAt: issued)
            }
            switch LoginAnswer.errorCode(in: response.body) {
            case "challenge_expired":
                throw MFAError.expiredChallenge()
            case "locked_out":
                throw MFAError(code: .attemptsExhausted, message: "the server locked the second factor after too many wrong codes; wait before signing in again")
            case "invalid_code" where response.status == .unauthorized:
                refused.insert(code)
                continue
            default:
                throw Self.unexpected(response, endpoint: "MFA verify")
            }
        }
        throw MFAError.attemptsExhausted(attempts: maxAttempts)
    }

    private func post(_ url: URL, _ fields: [String: String]) async throws -> AuthResponse {
        var request = try AuthRequest(method: .post, url: url, headerFields: [.contentType: "application/json", .accept: "application/json"])
        request.body = try JSONEncoder().encode(fields)
        return try await transport.send(request, within: AnswerLimits(), reading: "the sign-in endpoint")
    }

    /// An `httpStatus` error naming the endpoint and, when the body has one, its `error` code.
    private static func unexpected(_ response: AuthResponse, endpoint: String) -> AuthError {
        let code = LoginAnswer.errorCode(in: response.body).map { " (\($0))" } ?? ""
        return AuthError(code: .httpStatus, message: "the \(endpoint) endpoint answered \(response.status.code)\(code)", status: response.status.code, responseBody: Array(response.body))
    }
}

/// Reads the parts of a login answer that are not a token response.
enum LoginAnswer {
    struct Challenge: Decodable {
        var mfa_required: Bool?
        var challenge_id: String?
        var methods: [String]?
        var expires_in: Double?
    }

    /// The challenge in a login answer, or nil when the answer is a token response.
    static func challenge(in body: Data, now: Date) throws -> MFAChallenge? {
        guard let parsed = try? JSONDecoder().decode(Challenge.self, from: body), parsed.mfa_required == true else { return nil }
        guard let id = parsed.challenge_id, !id.isEmpty, let methods = parsed.methods else {
            throw AuthError(code: .decoding, message: "the MFA challenge lacks challenge_id or methods")
        }
        return MFAChallenge(id: id, methods: methods.map(MFAMethod.init(rawValue:)), expiresAt: now.addingTimeInterval(parsed.expires_in ?? 300))
    }

    /// The OAuth-style `error` field of a body, if any.
    static func errorCode(in body: Data) -> String? {
        struct ErrorField: Decodable { var error: String? }
        return (try? JSONDecoder().decode(ErrorField.self, from: body))?.error
    }
}
