// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthSigning
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// AuthKit's SigV4 signer against botocore's (`Interop/botocore_sigv4_server.py`), over generated
/// requests: the same canonical request and signature for every one, and a server that
/// recomputes the signature with botocore from what arrives on the wire accepts what AuthKit's
/// transport sends.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropBotocoreSigV4Tests {
    static let credentials = (accessKey: "AKIDEXAMPLE", secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)   // 20150830T123600Z

    /// Where AuthKit and botocore sign the same URL differently on purpose. Every other
    /// difference fails the test. The generator writes requests as an AWS SDK puts them on the
    /// wire, so none of these shapes is generated; each is checked below to differ exactly as
    /// described. Only the tracing fields differ on the wire: for the other shapes AuthKit sends
    /// the target in the spelling it signed (`SigV4Target`), which botocore signs alike.
    static let knownDifferences: [(shape: String, authKit: String, botocore: String, why: String)] = [
        ("tracing fields (traceparent, tracestate, baggage, b3, …)", "never signed", "signed when present",
         "tracing agents and proxies rewrite them in transit, which breaks the signature; the AWS SDKs already leave out x-amzn-trace-id for that reason (issue 19)"),
        ("a query escape in lower case (`%e9`) or an unescaped byte outside the unreserved set (`+`, `é`)",
         "decoded and escaped again, upper case, and sent so", "signed as it stands in the URL",
         "SigV4 (AWS General Reference, 'Create a canonical request') URI-encodes each decoded name and value; services recompute it that way. botocore escapes its own URLs so, and only then agree."),
        ("an empty query pair (`a=1&&b=2`)", "dropped, and not sent", "signed as `=`", "an empty pair names no parameter; the services' parsers drop it"),
        ("an S3 key segment with an escaped unreserved byte (`%7E`) or a raw sub-delimiter (`!`)", "decoded and escaped again (`~`, `%21`), and sent so",
         "signed as it stands", "S3 decodes the key and URI-encodes it again (the S3 SigV4 documentation); botocore only ever sends keys it escaped itself (issue 51)"),
    ]

    @Test func generatedRequestsCanonicalizeAndSignAsBotocoreDoes() async throws {
        try await InteropPeer.run("botocore_sigv4_server.py") { peer in
            try await HTTPClientTransport.withTransport { transport in
                var generator = SigV4RequestGenerator(random: SeededRandom(seed: 19))
                var mismatches: [String] = []
                var shapes: [String: Int] = [:]
                for index in 0..<400 {
                    let testCase = try generator.next(s3: index % 3 == 0)
                    for shape in Self.shapes(of: testCase) { shapes[shape, default: 0] += 1 }
                    let ours = try Self.signer(for: testCase).signature(for: testCase.request, at: Self.date)
                    let theirs = try await Self.botocore(testCase, signedHeaders: ours.signedHeaders.split(separator: ";").map(String.init), peer: peer, transport: transport)
                    if theirs.canonical_request != ours.canonicalRequest || theirs.signature != ours.signature {
                        mismatches.append("\(testCase)\n  AuthKit:\n\(ours.canonicalRequest)\n  botocore:\n\(theirs.canonical_request)")
                    }
                }
                // The comparison covered every shape the issue names, not only the common ones.
                for shape in Self.requiredShapes { #expect(shapes[shape, default: 0] > 0, "no generated request was \(shape)") }
                #expect(mismatches.isEmpty, "\(mismatches.count) of 400 differ; the first ones:\n\(mismatches.prefix(8).joined(separator: "\n\n"))")
            }
        }
    }

    /// Which fields are signed: botocore signs every field but its hop-by-hop list, AuthKit also
    /// leaves out the tracing fields (`knownDifferences`); the sets differ by nothing else.
    @Test func theSignedFieldsDifferOnlyByTracingFields() async throws {
        try await InteropPeer.run("botocore_sigv4_server.py") { peer in
            try await HTTPClientTransport.withTransport { transport in
                var generator = SigV4RequestGenerator(random: SeededRandom(seed: 91))
                let tracing: Set<String> = ["traceparent", "tracestate", "baggage"]
                var sawTracing = false
                for index in 0..<150 {
                    let testCase = try generator.next(s3: index % 3 == 0)
                    let ours = Set(try Self.signer(for: testCase).signature(for: testCase.request, at: Self.date).signedHeaders.split(separator: ";").map(String.init))
                    let theirs = Set(try await Self.botocore(testCase, signedHeaders: nil, peer: peer, transport: transport).signed_headers.split(separator: ";").map(String.init))
                    #expect(ours.isSubset(of: theirs), "\(testCase)")
                    #expect(theirs.subtracting(ours).isSubset(of: tracing), "\(testCase): botocore also signs \(theirs.subtracting(ours).sorted())")
                    sawTracing = sawTracing || !theirs.subtracting(ours).isEmpty
                }
                #expect(sawTracing)
            }
        }
    }

    @Test func knownDifferencesAreRealAndAsDescribed() async throws {
        try await InteropPeer.run("botocore_sigv4_server.py") { peer in
            try await HTTPClientTransport.withTransport { transport in
                // Each raw shape of `knownDifferences` (the tracing one is checked above).
                let shapes: [(url: String, service: String, ours: String, theirs: String)] = [
                    ("https://h.example/?b=%e9&a=+", "service", "a=%2B&b=%E9", "a=+&b=%e9"),
                    ("https://h.example/?a=1&&b=2", "service", "a=1&b=2", "=&a=1&b=2"),
                    ("https://b.s3.amazonaws.com/a%7Eb!c", "s3", "/a~b%21c", "/a%7Eb!c"),
                ]
                #expect(shapes.count == Self.knownDifferences.count - 1)
                for shape in shapes {
                    let testCase = SigV4RequestGenerator.Case(
                        request: try AuthRequest(method: .get, url: try #require(URL(string: shape.url))), url: shape.url,
                        service: shape.service, unsignedPayload: false, sessionToken: nil
                    )
                    let ours = try Self.signer(for: testCase).signature(for: testCase.request, at: Self.date)
                    let theirs = try await Self.botocore(testCase, signedHeaders: nil, peer: peer, transport: transport)
                    let line = shape.url.contains("?") ? 2 : 1
                    #expect(ours.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)[line] == shape.ours[...])
                    #expect(theirs.canonical_request.split(separator: "\n", omittingEmptySubsequences: false)[line] == shape.theirs[...])
                    // What AuthKit sends is the target it signed, and botocore signs that target alike.
                    let sentTarget = try #require(ours.request.head.path)
                    let authority = try #require(testCase.request.head.authority)
                    let sentURL = "https://\(authority)\(sentTarget)"
                    let sent = SigV4RequestGenerator.Case(
                        request: try AuthRequest(method: .get, url: try #require(URL(string: sentURL))),
                        url: sentURL, service: shape.service, unsignedPayload: false, sessionToken: nil
                    )
                    let theirsForSent = try await Self.botocore(sent, signedHeaders: nil, peer: peer, transport: transport)
                    #expect(theirsForSent.canonical_request == ours.canonicalRequest, "\(shape.url) is sent as \(sentTarget)")
                    #expect(theirsForSent.signature == ours.signature)
                }
            }
        }
    }

    /// Over real HTTP: requests signed by AuthKit and sent by its AsyncHTTPClient transport, which
    /// the peer checks by recomputing their signatures with botocore from the bytes it received.
    /// Paths with escapes of bytes that are not UTF-8 are left out: AsyncHTTPClient cannot send
    /// them, and the transport refuses them (`HTTPClientTransportTests`); their signatures are
    /// compared with botocore's above.
    @Test func botocoreAcceptsWhatTheTransportSends() async throws {
        try await InteropPeer.run("botocore_sigv4_server.py") { peer in
            try await HTTPClientTransport.withTransport { transport in
                var generator = SigV4RequestGenerator(random: SeededRandom(seed: 4))
                var refused: [String] = []
                var sent = 0
                while sent < 60 {
                    var testCase = try generator.next(s3: sent % 2 == 0)
                    let path = testCase.request.head.path ?? "/"
                    // Python's http.server turns a leading `//` into `/` before the peer sees it
                    // (CPython gh-87389), so such paths are compared above only.
                    guard Self.decodesToUTF8(path: path), !path.hasPrefix("//") else { continue }
                    sent += 1
                    // The generated path and query, to the peer; fields the transport owns left out.
                    let target = testCase.request.head.path ?? "/"
                    let url = try #require(URL(string: "\(peer.base.absoluteString.dropLast())\(target)"))
                    var fields = testCase.request.head.headerFields
                    for name in ["Keep-Alive", "TE", "Upgrade", "Trailer"] { fields[try #require(HTTPField.Name(name))] = nil }
                    testCase.request = try AuthRequest(method: testCase.request.head.method == .head ? .get : testCase.request.head.method,
                                                       url: url, headerFields: fields, body: testCase.request.body)
                    var signed = testCase.request
                    try await Self.signer(for: testCase).sign(&signed, at: Self.date)
                    let response = try await transport.send(signed)
                    if response.status.code != 200 {
                        refused.append("\(testCase)\n  botocore recomputed:\n\(String(decoding: response.body, as: UTF8.self))")
                    }
                }
                #expect(refused.isEmpty, "\(refused.count) of 60 refused; the first ones:\n\(refused.prefix(5).joined(separator: "\n\n"))")

                // And a request changed after signing is refused.
                var tampered = try AuthRequest(method: .get, url: peer.url("items"))
                try await SigV4Signer(credentials: .init(accessKeyID: Self.credentials.accessKey, secretAccessKey: Self.credentials.secret),
                                      configuration: .init(region: "us-east-1", service: "service")).sign(&tampered, at: Self.date)
                tampered.head.path = "/items?admin=1"
                #expect(try await transport.send(tampered).status.code == 403)
            }
        }
    }

    /// Whether the escapes of the path (before `?`) decode to UTF-8.
    static func decodesToUTF8(path target: String) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return path.removingPercentEncoding != nil
    }

    static let requiredShapes = [
        "an explicit :443", "a path escape that is not UTF-8", "a dot segment", "a query name without =", "a tab in a field",
        "a hop-by-hop field", "a tracing field", "a caller's X-Amz-Content-SHA256", "a session token", "S3", "an unsigned S3 payload",
    ]

    /// The `requiredShapes` a generated case has.
    static func shapes(of testCase: SigV4RequestGenerator.Case) -> [String] {
        let target = testCase.request.head.path ?? "/"
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let query = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        let names = Set(testCase.request.head.headerFields.map(\.name.canonicalName))
        let checks: [(String, Bool)] = [
            ("an explicit :443", testCase.url.contains(":443/")),
            ("a path escape that is not UTF-8", !decodesToUTF8(path: path)),
            ("a dot segment", path.split(separator: "/").contains { $0 == "." || $0 == ".." }),
            ("a query name without =", query.split(separator: "&").contains { !$0.contains("=") }),
            ("a tab in a field", testCase.request.head.headerFields.contains { $0.value.contains("\t") }),
            ("a hop-by-hop field", !names.isDisjoint(with: ["te", "upgrade", "keep-alive", "trailer", "proxy-authorization"])),
            ("a tracing field", !names.isDisjoint(with: ["traceparent", "tracestate", "baggage"])),
            ("a caller's X-Amz-Content-SHA256", testCase.service != "s3" && names.contains("x-amz-content-sha256")),
            ("a session token", testCase.sessionToken != nil),
            ("S3", testCase.service == "s3"),
            ("an unsigned S3 payload", testCase.unsignedPayload),
        ]
        return checks.filter(\.1).map(\.0)
    }

    static func signer(for testCase: SigV4RequestGenerator.Case) -> SigV4Signer {
        let credentials = AWSCredentials(accessKeyID: Self.credentials.accessKey, secretAccessKey: Self.credentials.secret, sessionToken: testCase.sessionToken)
        let configuration: SigV4Configuration = testCase.service == "s3"
            ? .s3(region: "us-east-1", payload: testCase.unsignedPayload ? .unsigned : .signed)
            : .init(region: "us-east-1", service: testCase.service)
        return SigV4Signer(credentials: credentials, configuration: configuration)
    }

    struct BotocoreSignature: Decodable {
        let canonical_request: String
        let string_to_sign: String
        let signature: String
        let signed_headers: String
    }

    /// botocore's signature of the case as a botocore client would make it.
    static func botocore(
        _ testCase: SigV4RequestGenerator.Case, signedHeaders: [String]?, peer: InteropPeer, transport: any Transport
    ) async throws -> BotocoreSignature {
        struct Spec: Encodable {
            let method: String, url: String, headers: [[String]], body_base64: String, region: String, service: String
            let access_key: String, secret_key: String, session_token: String?, amz_date: String, unsigned_payload: Bool
            let signed_headers: [String]?
        }
        let spec = Spec(
            method: testCase.request.head.method.rawValue, url: testCase.url,
            headers: testCase.request.head.headerFields.map { [$0.name.rawName, $0.value] },
            body_base64: testCase.request.body.base64EncodedString(), region: "us-east-1", service: testCase.service,
            access_key: credentials.accessKey, secret_key: credentials.secret, session_token: testCase.sessionToken,
            amz_date: "20150830T123600Z", unsigned_payload: testCase.unsignedPayload, signed_headers: signedHeaders
        )
        let request = try AuthRequest(method: .post, url: peer.url("_canonical"), headerFields: [.contentType: "application/json"], body: try JSONEncoder().encode(spec))
        let response = try await transport.send(request)
        guard response.status.code == 200 else {
            throw InteropPeerError("botocore could not sign \(testCase): \(String(decoding: response.body, as: UTF8.self))")
        }
        return try JSONDecoder().decode(BotocoreSignature.self, from: response.body)
    }
}
