// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// The JSON answer that carries bearer tokens: an OAuth 2.0 token endpoint's success response
/// (RFC 6749 §5.1), the shape most JSON logins answer with too (`access_token`, `expires_in`,
/// `refresh_token`). The OAuth 2.0 protocol around it (the token endpoint, its grants and its
/// errors) is AuthOAuth2's; this reader stays here for every sign-in that yields bearer tokens.
///
/// The tokens are held as ``Secret``s, so its `description`, `debugDescription` and `dump`
/// never show them; read one deliberately with ``Secret/reveal``.
public struct TokenResponse: Sendable, Decodable {
    /// `access_token`.
    public var accessToken: Secret
    /// `token_type`.
    public var tokenType: String?
    /// `expires_in`, in seconds.
    public var expiresIn: Double?
    /// `refresh_token`.
    public var refreshToken: Secret?
    /// `scope`.
    public var scope: String?
    /// `id_token`.
    public var idToken: Secret?
    /// How long the refresh token lives, in seconds: `refresh_expires_in` (Keycloak and others)
    /// or `refresh_token_expires_in` (Microsoft, GitHub); not part of RFC 6749. A value of 0 is
    /// read as "not said" (Keycloak's offline tokens answer 0).
    public var refreshExpiresIn: Double?

    /// The longest lifetime read from `expires_in`: ten years. A longer, infinite or NaN value is
    /// read as this; a negative one as zero.
    public static let maximumExpiresIn: Double = 10 * 365 * 86_400

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case refreshToken = "refresh_token", scope, idToken = "id_token"
        case refreshExpiresIn = "refresh_expires_in", refreshTokenExpiresIn = "refresh_token_expires_in"
    }

    /// Decodes the response; `expires_in` may be a number or a numeric string, and is kept within
    /// `0...maximumExpiresIn`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(Secret.self, forKey: .accessToken)
        tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType)
        expiresIn = try Self.lifetime(c, .expiresIn)
        let refreshLifetime = try Self.lifetime(c, .refreshExpiresIn) ?? Self.lifetime(c, .refreshTokenExpiresIn)
        refreshExpiresIn = refreshLifetime == 0 ? nil : refreshLifetime
        refreshToken = try c.decodeIfPresent(Secret.self, forKey: .refreshToken)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        idToken = try c.decodeIfPresent(Secret.self, forKey: .idToken)
    }

    /// A lifetime in seconds, a number or a numeric string, kept within `0...maximumExpiresIn`.
    private static func lifetime(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Double? {
        let raw: Double?
        if let seconds = try? c.decodeIfPresent(Double.self, forKey: key) {
            raw = seconds
        } else {
            raw = try c.decodeIfPresent(String.self, forKey: key).flatMap(Double.init)
        }
        // "nan", "inf" or 1e400 from a server would make an expiry that is never due and that
        // JSONEncoder refuses to store: a lifetime is finite and at most `maximumExpiresIn`.
        return raw.map { $0.isFinite ? min(max($0, 0), Self.maximumExpiresIn) : Self.maximumExpiresIn }
    }

    /// Parses a token response body.
    /// - Throws: `AuthError` `.decoding` naming what was wrong (never the body's secrets).
    public static func parse(_ body: Data) throws -> TokenResponse {
        do {
            return try JSONDecoder().decode(TokenResponse.self, from: body)
        } catch {
            throw AuthError(code: .decoding, message: "the token response is not valid JSON of the expected shape: \(DecodingFailure(error))")
        }
    }

    /// The server's clock minus the local clock, in seconds, as the session renewing a
    /// credential knows it (``AccountSession/clockSkew``): ``AccountSession`` sets it around each
    /// ``AuthStrategy/renew(_:context:)``, so that a refresher reading a token response (through
    /// ``issuedAt(_:sent:received:serverClockOffset:)``) places the sending on the server's clock.
    /// 0 outside a renewal.
    @TaskLocal public static var serverClockOffset: TimeInterval = 0

    /// When a token response's tokens were issued, by the server's clock and as early as they
    /// can have been, for a request sent at `sent` and answered at `received` (local clock).
    ///
    /// Expiries computed from `expires_in` then use the same clock as the skew-corrected "now"
    /// that renewal decisions compare them with, and are never later than the server's own.
    /// Servers count in whole seconds (the `Date` field, and the `iat`/`exp` most compute), and
    /// stamp `Date` when the answer leaves, not when the token was minted: a token minted at
    /// 10.9 s in an answer held up past 11 s says `Date: …:11` but expires a second sooner.
    /// So when this exchange shows the two clocks agree (the server's `Date`, to its second,
    /// lies between sending and receiving, read on the server's clock), the issue time is the
    /// earlier of the `Date` and the server's whole second in which the request was sent, which
    /// no token minted for it precedes. When the clocks differ, the `Date` alone (the session
    /// corrects for the skew); without a `Date`, `sent`.
    ///
    /// The sending is placed on the server's clock with `serverClockOffset`. Read on the local
    /// clock instead, a server 0.6 s ahead that minted a token at 1.55 s (its `exp` 3 s) for a
    /// request sent at 0.93 s local gave an issue time of 0 s: the token looked due a second
    /// early and was renewed again in the second it was minted, for the same `exp`.
    /// - Parameters:
    ///   - response: The token endpoint's answer.
    ///   - sent: When the request was sent, by the local clock.
    ///   - received: When the answer arrived, by the local clock.
    ///   - offset: The server's clock minus the local clock; by default the renewing session's
    ///     (``serverClockOffset``).
    public static func issuedAt(_ response: AuthResponse, sent: Date, received: Date, serverClockOffset offset: TimeInterval = serverClockOffset) -> Date {
        guard let date = response.head.headerFields[.date].flatMap(HTTPDate.parse) else { return sent }
        let sentOnServer = sent.addingTimeInterval(offset)
        let clocksAgree = date <= received.addingTimeInterval(offset) && sentOnServer < date.addingTimeInterval(1)
        guard clocksAgree else { return date }
        return min(date, Date(timeIntervalSince1970: sentOnServer.timeIntervalSince1970.rounded(.down)))
    }

    /// The token set this response describes. What the response leaves out is taken from the
    /// set it renews, `previous` (a refresh's answer): the refresh token and its expiry (RFC 6749
    /// §6 lets the server keep the refresh token), the scope (§6: a refresh keeps the granted
    /// scope) and the ID token (OpenID Connect Core §12.2: a refresh's answer may have none; the
    /// sign-in's still names the user for a logout's `id_token_hint`). A scope the request asked
    /// for, `requestedScope`, is the scope of an answer that names none (§5.1: the server omits
    /// it when it granted what was asked).
    public func tokenSet(issuedAt now: Date, renewing previous: BearerTokenSet? = nil, requestedScope: String? = nil) -> BearerTokenSet {
        let refreshExpiresAt = refreshToken == nil && previous?.refreshToken != nil
            ? (refreshExpiresIn.map { now.addingTimeInterval($0) } ?? previous?.refreshExpiresAt)
            : refreshExpiresIn.map { now.addingTimeInterval($0) }
        return BearerTokenSet(
            accessToken: accessToken.reveal,
            refreshToken: refreshToken?.reveal ?? previous?.refreshToken?.reveal,
            expiresAt: expiresIn.map { now.addingTimeInterval($0) },
            scope: scope ?? requestedScope ?? previous?.scope,
            tokenType: tokenType ?? "Bearer",
            idToken: idToken?.reveal ?? previous?.idToken?.reveal,
            refreshExpiresAt: refreshExpiresAt
        )
    }
}
