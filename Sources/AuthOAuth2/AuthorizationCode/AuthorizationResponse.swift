public import AuthCore
public import Foundation

/// The parameters of the redirect that ends an authorization (RFC 6749 §4.1.2 and §4.1.2.1,
/// RFC 9207 `iss`), read from the redirect URL's query with form decoding.
public struct AuthorizationResponse: Sendable, Equatable {
    /// `code`, when the user consented.
    public var code: String?
    /// `state`.
    public var state: String?
    /// `iss` (RFC 9207).
    public var issuer: String?
    /// The error, when the user or the provider refused.
    public var error: OAuth2Error?

    /// Reads the parameters of `redirect`.
    public init(redirect: URL) {
        var values: [String: String] = [:]
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecode(pair[0])
            guard values[name] == nil else { continue }  // the first of a repeated parameter
            values[name] = pair.count == 2 ? Self.formDecode(pair[1]) : ""
        }
        code = values["code"]
        state = values["state"]
        issuer = values["iss"]
        error = values["error"].map { OAuth2Error(code: $0, errorDescription: values["error_description"], errorURI: values["error_uri"]) }
    }

    static func formDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
