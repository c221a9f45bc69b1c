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
/// `{"challenge_id", "method", "code"}`. A refused code asks the provider again, up to
/// ``maxAttempts``.
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
    ///   - codeProvider: Answers challenges; without one, a challenge is an `MFAError.noMethodAvailable`.
    ///   - preferredMethods: The methods this client can answer, most preferred first.
    public init(loginURL: URL, verifyURL: URL, transport: any Transport, codeProvider: (any MFACodeProvider)? = nil, preferredMethods: [MFAMethod] = [.totp, .recoveryCode], maxAttempts: Int = 3, clock: any AuthClock = SystemClock()) {
        self.loginURL = loginURL
        self.verifyURL = verifyURL
        self.transport = transport
        self.codeProvider = codeProvider
        self.preferredMethods = preferredMethods
        self.maxAttempts = maxAttempts
        self.clock = clock
    }

    /// Signs in and returns the tokens.
    /// - Throws: `AuthError.reauthenticationRequired` for refused credentials, `MFAError`
    ///   (`.expiredChallenge`, `.attemptsExhausted`, `.noMethodAvailable`), `AuthError` for
    ///   transport and decoding failures.
    public func signIn(username: String, password: String) async throws -> BearerTokenSet {
        let response = try await post(loginURL, ["username": username, "password": password])
        let issued = TokenResponse.issuedAt(response, fallback: clock.now())
        guard (200..<300).contains(response.status.code) else {
            if response.status == .unauthorized { throw AuthError.reauthenticationRequired(nil, reason: "the server refused the user name or password") }
            throw AuthError(code: .httpStatus, message: "the login endpoint answered \(response.status.code)", status: response.status.code)
        }
        guard let challenge = try LoginAnswer.challenge(in: response.body, now: issued) else {
            return try TokenResponse.parse(response.body).tokenSet(issuedAt: issued)
        }
        return try await answer(challenge)
    }

    private func answer(_ challenge: MFAChallenge) async throws -> BearerTokenSet {
        guard let codeProvider else { throw MFAError.noMethodAvailable(offered: challenge.methods) }
        let method = try challenge.preferredMethod(among: preferredMethods)
        for _ in 0..<max(1, maxAttempts) {
            guard !challenge.isExpired(at: clock.now()) else { throw MFAError.expiredChallenge() }
            let code = try await codeProvider.code(for: challenge, method: method)
            let response = try await post(verifyURL, ["challenge_id": challenge.id, "method": method.rawValue, "code": code])
            if (200..<300).contains(response.status.code) {
                return try TokenResponse.parse(response.body).tokenSet(issuedAt: TokenResponse.issuedAt(response, fallback: clock.now()))
            }
            if LoginAnswer.errorCode(in: response.body) == "challenge_expired" { throw MFAError.expiredChallenge() }
            guard response.status == .unauthorized || response.status == .badRequest else {
                throw AuthError(code: .httpStatus, message: "the verify endpoint answered \(response.status.code)", status: response.status.code)
            }
        }
        throw MFAError.attemptsExhausted(attempts: maxAttempts)
    }

    private func post(_ url: URL, _ fields: [String: String]) async throws -> AuthResponse {
        var request = try AuthRequest(method: .post, url: url, headerFields: [.contentType: "application/json", .accept: "application/json"])
        request.body = try JSONEncoder().encode(fields)
        return try await transport.send(request)
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
        guard let id = parsed.challenge_id, let methods = parsed.methods else {
            throw AuthError(code: .decoding, message: "the MFA challenge lacks challenge_id or methods")
        }
        return MFAChallenge(id: id, methods: methods.map(MFAMethod.init(rawValue:)), expiresAt: now.addingTimeInterval(parsed.expires_in ?? 300))
    }

    /// The OAuth-style `error` field of a body, if any.
    static func errorCode(in body: Data) -> String? {
        (try? JSONDecoder().decode([String: JSONValue].self, from: body))?["error"].flatMap {
            if case .string(let code) = $0 { code } else { nil }
        }
    }
}
