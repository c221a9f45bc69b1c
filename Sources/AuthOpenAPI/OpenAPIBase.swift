import AuthCore
import Foundation

/// A generated client's server URL, read once per call by AuthKit's one-pass URL parser.
struct OpenAPIBase {
    /// The server URL as the generated client gave it.
    let url: URL
    let scheme: String
    let authority: String
    /// The server URL's path without a trailing `/` (empty for none).
    let path: String

    /// - Throws: `AuthError.invalidRequest` when the URL has no scheme or host, or holds a query
    ///   (a server URL names a place, not a request).
    init(_ url: URL) throws {
        guard let parts = URLRequestParts.of(url), !parts.target.utf8.contains(UInt8(ascii: "?")) else {
            throw AuthError.invalidRequest("the client's server URL has no scheme or host, or holds a query")
        }
        self.url = url
        scheme = parts.scheme
        authority = parts.authority
        var path = parts.target
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
    }

    /// The target of an operation's `path` (path and query, starting with `/`) under this URL.
    func target(_ operationPath: String?) throws -> String {
        let operationPath = operationPath ?? "/"
        guard operationPath.hasPrefix("/") else {
            throw AuthError.invalidRequest("the operation's path does not start with /")
        }
        return path + operationPath
    }

    /// The operation path of `target` on `scheme://authority` relative to this URL, when the
    /// request still goes where the client pointed it (no redirect elsewhere); nil otherwise.
    func operationPath(scheme: String?, authority: String?, target: String) -> String? {
        guard scheme == self.scheme, authority == self.authority, target.hasPrefix(path) else { return nil }
        let rest = target.dropFirst(path.count)
        guard rest.hasPrefix("/") else { return nil }
        return String(rest)
    }
}
