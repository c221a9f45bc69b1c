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

    /// A request made from a URL sends that URL's string when it is already the transport's URL;
    /// over generated URLs (user info, empty ports, fragments, upper case, queries without a
    /// path) it equals the URL rebuilt from the head, and a head whose scheme, authority or path
    /// a middleware changed is sent to the new target, never to the URL it was made from.
    @Test func aRequestMadeFromAURLSendsWhatItsHeadSays() throws {
        var random = SeededRandom(seed: 2326)
        let schemes = ["http", "https", "HTTP", "ftp"]
        let authorities = ["example.com", "Example.com", "u:p@example.com", "@example.com", "example.com:", "example.com:443", "example.com:8443", "[::1]:8080", "127.0.0.1"]
        let targets = ["", "/", "/a/b", "?q=1", "/a?q=1#f", "#f", "/a b", "/%7e"]
        for _ in 0..<1_000 {
            let text = schemes.randomElement(using: &random)! + "://" + authorities.randomElement(using: &random)! + targets.randomElement(using: &random)!
            guard let url = URL(string: text), let request = try? AuthRequest(method: .get, url: url) else { continue }
            let rebuilt = AuthRequest(head: request.head)
            #expect((try? request.urlForTransport()) == (try? rebuilt.urlForTransport()), "\(text)")
            var moved = request
            switch random.next() % 3 {
            case 0: moved.head.authority = "other.example:8443"
            case 1: moved.head.path = "/elsewhere"
            default: moved.head.scheme = "wss"
            }
            #expect((try? moved.urlForTransport()) == (try? AuthRequest(head: moved.head).urlForTransport()), "\(text)")
            #expect((try? moved.urlForTransport()) != (try? request.urlForTransport()) || (try? request.urlForTransport()) == nil, "\(text)")
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
        session.observeServerDateField(ahead)
        #expect(abs(session.clockSkew - 100) < 1)
        // The same field a minute later (by the local clock): not parsed again, so the estimate
        // stays; a new value moves it.
        clock.advance(by: 60)
        session.observeServerDateField(ahead)
        #expect(abs(session.clockSkew - 100) < 1)
        session.observeServerDateField(HTTPDate.format(clock.now().addingTimeInterval(200)))
        #expect(abs(session.clockSkew - 200) < 1)
        session.observeServerDateField("not a date")
        #expect(abs(session.clockSkew - 200) < 1)
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
