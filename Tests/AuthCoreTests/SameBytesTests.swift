@testable import AuthCore
import Testing

/// The caches' key comparison: the same bytes, whether the two strings are one value (a copy,
/// compared by representation) or two (compared byte by byte).
@Suite struct SameBytesTests {
    static let texts = [
        "", "a", "K", "\u{212A}", "/a;b", "/a\u{037E}b", "api.example.com", "api.example.co",
        "http://127.0.0.1:8080/v1/me?x=1", "http://127.0.0.1:8080/v1/me?x=2", "https://\u{212A}evin.example.com/a/long/path",
        String(repeating: "x", count: 15), String(repeating: "x", count: 16), String(repeating: "x", count: 300),
    ]

    /// A string with the same bytes as `text`, in storage of its own.
    static func rebuilt(_ text: String) -> String {
        String(decoding: Array(text.utf8), as: UTF8.self)
    }

    @Test func copiesAndRebuiltStringsAreTheSameBytesAndNothingElseIs() {
        for a in Self.texts {
            for b in Self.texts {
                let same = Array(a.utf8) == Array(b.utf8)
                #expect(sameBytes(a, b) == same, "\(a) \(b)")
                #expect(sameBytes(a, Self.rebuilt(b)) == same, "\(a) \(b)")
                #expect(sameBytes(Self.rebuilt(a), b) == same, "\(a) \(b)")
            }
            let copy = a
            #expect(sameBytes(a, copy))
            // A copy changed after it was made is another value.
            var changed = a
            changed.append("!")
            #expect(!sameBytes(a, changed) && !sameBytes(changed, a))
            #expect(!sameBytes(a, nil) && !sameBytes(nil, a))
        }
        #expect(sameBytes(nil, nil))
    }
}
