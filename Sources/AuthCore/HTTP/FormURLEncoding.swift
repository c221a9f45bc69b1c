public import Foundation

/// `application/x-www-form-urlencoded` (the WHATWG URL standard's serializer): what OAuth 2.0
/// token, revocation and authorization requests are written in.
///
/// ```swift
/// let body = FormURLEncoding.body([("grant_type", "client_credentials"), ("scope", "read write")])
/// // grant_type=client_credentials&scope=read+write
/// ```
public enum FormURLEncoding {
    /// One name or value: unreserved bytes as they are, spaces as `+`, the rest percent-encoded.
    public static func encode(_ text: String) -> String {
        QueryItems.formEncode(text)
    }

    /// Name-value pairs joined with `=` and `&`, in order.
    public static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encode($0))=\(encode($1))" }.joined(separator: "&")
    }

    /// ``query(_:)`` as a request body.
    public static func body(_ pairs: [(String, String)]) -> Data {
        Data(query(pairs).utf8)
    }
}
