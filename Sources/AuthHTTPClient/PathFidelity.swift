import AuthCore
import Foundation

/// The request target AsyncHTTPClient puts on the wire for a URL string.
///
/// AsyncHTTPClient takes the URL as a string, parses it with Foundation's `URL`, and writes the
/// target from that parse: the path as `URLComponents` spells it (`/` whenever `URL.path` is
/// empty, which it is when the path's escapes decode to bytes that are not UTF-8, such as
/// `/photos/a%FF.jpg`), then `?` and the query as `URL` keeps it. Foundation percent-encodes the
/// bytes a URL may not hold (`"`, `<`, `>`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`, a `%` not
/// followed by two hex digits).
///
/// The transport computes that target from the same parse and compares it with the request's, so
/// a request goes out with exactly the target it was built (and signed) with, or not at all. A
/// request sent with another target would reach another resource, or carry a signature that
/// covers a target other than the one sent.
enum PathFidelity {
    /// The target AsyncHTTPClient sends for `url` (as `HTTPClientRequest(url:)` takes it); nil
    /// when Foundation cannot parse it. Mirrors AsyncHTTPClient's `URL.uri` (1.x).
    static func targetSent(for url: String) -> String? {
        guard let parsed = URL(string: url) else { return nil }
        var target = parsed.path.isEmpty
            ? "/" : (URLComponents(url: parsed, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? parsed.path)
        if let query = parsed.query { target += "?" + query }
        return target
    }
}
