import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
import Testing

/// What the transport makes of a response on the wire: every field, whatever the case of its
/// name (common names take a shortcut, others the general validation), in order, and the body
/// byte for byte, small or large.
@Suite struct ResponseConversionTests {
    @Test(arguments: [0, 17, 4_096, 300_000])
    func fieldsAndBodyArriveAsSent(bodySize: Int) async throws {
        let body = String((0..<bodySize).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
        let fields = [
            ("CONTENT-TYPE", "text/plain"), ("date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("eTaG", "\"v1\""),
            ("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("X-Odd_Name.1", "odd"), ("Content-Typo", "not the common one"),
            ("Server", "raw"), ("Content-Length", String(bodySize)), ("Connection", "close"),
        ]
        let head = fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\n\(head)\r\n\(body)")
        defer { server.close() }
        let response = try await HTTPClientTransport.withTransport { transport in
            try await transport.send(AuthRequest(method: .get, url: #require(URL(string: "http://127.0.0.1:\(server.port)/"))))
        }
        let received = response.head.headerFields.map { ($0.name.canonicalName, $0.value) }
        #expect(received.map(\.0) == fields.map { $0.0.lowercased() })
        #expect(received.map(\.1) == fields.map(\.1))
        #expect(response.head.headerFields[.contentType] == "text/plain")
        #expect(response.head.headerFields[fields: .setCookie].map(\.value) == ["a=1", "b=2"])
        #expect(response.body == Data(body.utf8))
    }
}
