// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Foundation
import HTTPTypes
import Testing

/// Component values from the examples of RFC 9421 §2.
@Suite struct SignatureComponentTests {
    static func value(_ component: ComponentIdentifier, _ head: HTTPRequest) throws -> String {
        try SignatureBase.value(of: component, in: .request(head))
    }

    @Test func derivedComponentsOfSection22() throws {
        let head = HTTPRequest(method: .post, scheme: "https", authority: "www.example.com", path: "/path?param=value")
        #expect(try Self.value(.method, head) == "POST")
        #expect(try Self.value(.targetURI, head) == "https://www.example.com/path?param=value")
        #expect(try Self.value(.authority, head) == "www.example.com")
        #expect(try Self.value(.scheme, head) == "https")
        #expect(try Self.value(.requestTarget, head) == "/path?param=value")
        #expect(try Self.value(.path, head) == "/path")
        #expect(try Self.value(.query, head) == "?param=value")
        let noQuery = HTTPRequest(method: .get, scheme: "https", authority: "WWW.Example.com:443", path: "/path")
        #expect(try Self.value(.query, noQuery) == "?")
        #expect(try Self.value(.authority, noQuery) == "www.example.com")
    }

    @Test func queryParametersOfSection228() throws {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "example.com",
                               path: "/parameters?var=this%20is%20a%20big%0Amultiline%20value&bar=with+plus+whitespace&fa%C3%A7ade%22%3A%20=something")
        #expect(try Self.value(.queryParam("var"), head) == "this%20is%20a%20big%0Amultiline%20value")
        #expect(try Self.value(.queryParam("bar"), head) == "with%20plus%20whitespace")
        #expect(try Self.value(.queryParam("fa%C3%A7ade%22%3A%20"), head) == "something")
        let simple = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/path?param=value&foo=bar&baz=batman&qux=")
        #expect(try Self.value(.queryParam("baz"), simple) == "batman")
        #expect(try Self.value(.queryParam("qux"), simple) == "")
        #expect(throws: SigningError.self) { try Self.value(.queryParam("missing"), simple) }
        let repeated = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/?a=1&a=2")
        #expect(throws: SigningError.self) { try Self.value(.queryParam("a"), repeated) }
    }

    @Test func headerFieldsOfSection21() throws {
        var fields = HTTPFields()
        let ows = try HTTPField.Name.named("X-OWS-Header")
        let cache = HTTPField.Name.cacheControl
        let example = try HTTPField.Name.named("Example-Header")
        fields.append(HTTPField(name: ows, value: "   Leading and trailing whitespace.   "))
        fields.append(HTTPField(name: cache, value: "max-age=60"))
        fields.append(HTTPField(name: cache, value: "   must-revalidate"))
        fields.append(HTTPField(name: example, value: "value, with, lots"))
        fields.append(HTTPField(name: example, value: "of, commas"))
        let head = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/", headerFields: fields)
        #expect(try Self.value(.header("X-OWS-Header"), head) == "Leading and trailing whitespace.")
        #expect(try Self.value(.header("cache-control"), head) == "max-age=60, must-revalidate")
        #expect(try Self.value(.header("example-header"), head) == "value, with, lots, of, commas")
        let binary = ComponentIdentifier("example-header", parameters: [("bs", .boolean(true))])
        #expect(binary.description == #""example-header";bs"#)
        #expect(try Self.value(binary, head) == ":dmFsdWUsIHdpdGgsIGxvdHM=:, :b2YsIGNvbW1hcw==:")
        #expect(throws: SigningError.self) { try Self.value(.header("absent"), head) }
    }

    @Test func statusAndRequestBoundComponentsOfResponses() throws {
        let request = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/foo")
        let response = HTTPResponse(status: .ok)
        let message = SignatureBase.Message.response(response, request: request)
        #expect(try SignatureBase.value(of: .status, in: message) == "200")
        #expect(try SignatureBase.value(of: ComponentIdentifier("@method", parameters: [("req", .boolean(true))]), in: message) == "POST")
        let status = try caughtSync { try SignatureBase.value(of: .status, in: .request(request)) }
        #expect(status?.code == .componentNotFound)
        let trailer = try caughtSync { try SignatureBase.value(of: ComponentIdentifier("content-type", parameters: [("tr", .boolean(true))]), in: message) }
        #expect(trailer?.code == .unsupportedComponent)
        let key = try caughtSync { try SignatureBase.value(of: ComponentIdentifier("example-dict", parameters: [("key", .string("a"))]), in: message) }
        #expect(key?.code == .componentNotFound)
    }

    func caughtSync(_ body: () throws -> Any) throws -> SigningError? {
        do {
            _ = try body()
            return nil
        } catch let error as SigningError {
            return error
        }
    }
}
