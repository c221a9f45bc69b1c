// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import AuthTesting
import Foundation
import HTTPTypes

/// Random requests to a peer and random RFC 9421 coverings of them: every derived request
/// component, plain fields with spaces inside their values (HTTPFields trims those around
/// them), a field sent on two lines, a
/// structured field re-serialized (`;sf`) or taken by member (`;key`), a field wrapped as byte
/// sequences (`;bs`), `@query-param` of names with escapes, and `content-digest` over a body.
struct MessageSignatureRequestGenerator {
    var random: SeededRandom

    /// One generated case: the request and what a signature of it covers.
    struct Case: CustomStringConvertible {
        var request: AuthRequest
        var components: [ComponentIdentifier]
        /// Whether `Content-Digest` is made from the body (and covered).
        var digest: Bool
        var description: String {
            let fields = request.head.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: " | ")
            let covered = components.map(\.description).joined(separator: " ")
            return "\(request.head.method) \(request.head.path ?? "") [\(covered)] \(fields)"
        }
    }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func count(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }

    /// Query names written as the URL standard's form encoding writes them, so that a name's
    /// `@query-param;name=` is the name as it stands in the URL.
    static let queryNames = ["a", "id", "Pet", "x%20y", "caf%C3%A9", "q*"]
    static let queryValues = ["1", "", "dog", "a%20b", "a+b", "%2A", "caf%C3%A9", "%7E", "~x", "%2F"]
    static let pathSegments = ["items", "a%20b", "caf%C3%A9", "~user", "a.b", "%2F", "x-1", "", "A%3Ab"]

    /// A request to `base` and a covering of it.
    mutating func next(base: URL) throws -> Case {
        let method = pick([HTTPRequest.Method.get, .post, .put, .delete, .patch])
        var target = "/" + (0..<count(1...3)).map { _ in pick(Self.pathSegments) }.joined(separator: "/")
        var names: [String] = []
        if chance(75) {
            let pairs = (0..<count(1...4)).map { _ -> String in
                let name = pick(Self.queryNames)
                names.append(name)
                return chance(10) ? name : "\(name)=\(pick(Self.queryValues))"
            }
            target += "?" + pairs.joined(separator: "&")
        }
        var fields = HTTPFields()
        var candidates: [ComponentIdentifier] = [.method, .targetURI, .authority, .scheme, .requestTarget, .path, .query]
        func add(_ name: String, _ value: String) { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        add("Accept", pick(["application/json", "*/*", "text/html;q=0.9, */*;q=0.8"]))
        candidates.append(.header("accept"))
        if chance(60) {
            add("X-Request-Id", pick(["7f3c", "abc", "spaced \t  value", "a,b"]))
            candidates.append(.header("x-request-id"))
        }
        if chance(50) {
            add("X-Multi", pick(["one", "one  more"]))
            add("x-multi", pick(["two", "two, three", ""]))
            candidates += [.header("x-multi"), ComponentIdentifier("x-multi", parameters: [("bs", .boolean(true))])]
        }
        if chance(50) {
            add("Priority", pick(["u=3, i", "u=1,   i", "i,u=5", "u=2;x=\"y\" , i"]))
            candidates += [.header("priority"), .header("priority", structured: true), .dictionaryMember("u", of: "priority")]
        }
        if chance(25) {
            add("X-Empty", "")
            candidates.append(.header("x-empty"))
        }
        for name in Set(names) where names.filter({ $0 == name }).count == 1 { candidates.append(.queryParam(name)) }
        var body = Data()
        var digest = false
        if method != .get, method != .delete {
            body = Data((0..<count(0...300)).map { _ in pick(Array("{}\"abc:,0123 ".utf8)) })
            add("Content-Type", "application/json")
            candidates.append(.header("content-type"))
            digest = chance(50)
        }
        var components: [ComponentIdentifier] = []
        for _ in 0..<count(1...6) {
            let candidate = pick(candidates)
            if !components.contains(candidate) { components.append(candidate) }
        }
        if digest { components.insert(pick([.header("content-digest"), .header("content-digest", structured: true)]), at: count(0...components.count)) }
        guard let url = URL(string: "\(base.absoluteString.dropLast())\(target)") else { throw InteropPeerError("not a URL: \(target)") }
        var request = try AuthRequest(method: method, url: url, headerFields: fields, body: body)
        request.head.path = target   // as written, whatever URL made of it
        return Case(request: request, components: components, digest: digest)
    }
}
