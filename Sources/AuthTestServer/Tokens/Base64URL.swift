import Foundation

/// Unpadded base64url (RFC 4648 §5), as JWT segments use it.
enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes unpadded base64url; `nil` when the text is not unpadded base64url.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard !text.contains(where: { $0 == "+" || $0 == "/" || $0 == "=" }) else { return nil }
        var base64 = text
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
