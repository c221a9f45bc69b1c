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

    /// A request made from a URL keeps that URL's string when it is exactly scheme, `://`,
    /// authority and target, and `urlForTransport()` returns it when it is the transport's URL.
    /// Over every combination of schemes, authorities (user info, empty ports, upper case, IPv6)
    /// and targets (fragments, a query without a path, bytes a target may not hold), and URLs
    /// relative to a base, it equals the URL rebuilt from the head; a head whose scheme,
    /// authority or path a middleware changed is sent to the new target, never to the URL it
    /// was made from.
    @Test func aRequestMadeFromAURLSendsWhatItsHeadSays() throws {
        let schemes = ["http", "https", "HTTP", "ftp"]
        let authorities = ["example.com", "Example.com", "u:p@example.com", "@example.com", "example.com:", "example.com:443", "example.com:8443", "[::1]:8080", "127.0.0.1"]
        let targets = ["", "/", "/a/b", "?q=1", "/a?q=1#f", "#f", "/a b", "/%7e"]
        var urls = schemes.flatMap { scheme in authorities.flatMap { authority in targets.compactMap { URL(string: scheme + "://" + authority + $0) } } }
        let base = try #require(URL(string: "https://example.com/v1/"))
        urls += ["me", "/me?x=1", "../up", "//other.example/p"].compactMap { URL(string: $0, relativeTo: base) }
        var kept = 0
        for url in urls {
            guard let request = try? AuthRequest(method: .get, url: url) else { continue }
            let sent = try? request.urlForTransport()
            #expect(sent == (try? AuthRequest(head: request.head).urlForTransport()), "\(url)")
            if request.sourceURL != nil, sent == request.sourceURL { kept += 1 }
            for move in 0..<3 {
                var moved = request
                switch move {
                case 0: moved.head.authority = "other.example:8443"
                case 1: moved.head.path = "/elsewhere"
                default: moved.head.scheme = "wss"
                }
                let movedURL = try? moved.urlForTransport()
                #expect(movedURL == (try? AuthRequest(head: moved.head).urlForTransport()), "\(url) \(move)")
                #expect(sent == nil || movedURL != sent, "\(url) \(move)")
            }
        }
        #expect(kept > 20, "the URL was reused for \(kept) requests")
        // Kept exactly when the string is the parts as they are.
        for text in ["https://example.com/a/b", "http://127.0.0.1:8080/v1/me?x=1", "https://[::1]:8443/"] {
            #expect(try AuthRequest(method: .get, url: #require(URL(string: text))).sourceURL == text)
        }
        for text in ["https://u@example.com/a", "https://example.com:/a", "https://example.com/a#f", "https://example.com?q=1", "https://example.com"] {
            #expect(try AuthRequest(method: .get, url: #require(URL(string: text))).sourceURL == nil, "\(text)")
        }
    }

    /// The session reads a response's `Date` once per distinct value: a second response with
    /// the same value changes nothing, a new value is taken.
    @Test func aRepeatedDateFieldIsNotReadAgain() async throws {
        let clock = ManualClock()
        let session = AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { $0 },
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
        let ahead = HTTPDate.format(clock.now().addingTimeInterval(100))
        session.observeServerDateField(ahead, sentAt: clock.now())
        #expect(session.clockSkew > 100 && session.clockSkew <= 101)
        // The same field a minute later (by the local clock): not parsed again, so the estimate
        // stays; a new value moves it.
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
