// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthTestServer
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP exchange's outcome.
struct HTTPResult: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    func header(_ name: String) -> String? { headers.first(name: name) }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object; throws when it is not one.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("body is not a JSON object: \(text)")
        }
        return object
    }

    func string(_ key: String) throws -> String {
        guard let value = try json()[key] as? String else { throw TestFailure("no string \(key) in \(text)") }
        return value
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A small HTTP client bound to one server, over AsyncHTTPClient (redirects not followed).
struct TestClient: Sendable {
    let client: HTTPClient
    let baseURL: URL

    func send(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return HTTPResult(status: Int(response.status.code), headers: response.headers, body: Data(buffer.readableBytesView))
    }

    func get(_ path: String, bearer: String? = nil, headers: [(String, String)] = []) async throws -> HTTPResult {
        var all = headers
        if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
        return try await send("GET", path, headers: all)
    }

    func postJSON(_ path: String, _ object: [String: String], headers: [(String, String)] = []) async throws -> HTTPResult {
        let data = try JSONSerialization.data(withJSONObject: object)
        return try await send(
            "POST", path,
            headers: [("Content-Type", "application/json")] + headers,
            body: String(decoding: data, as: UTF8.self)
        )
    }

    func postForm(_ path: String, _ form: String) async throws -> HTTPResult {
        try await send("POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
    }

    /// Registers and logs in; returns the login body.
    func signUp(_ username: String, password: String = "correct horse") async throws -> [String: Any] {
        let registered = try await postJSON("/auth/register", ["username": username, "password": password])
        guard registered.status == 201 else { throw TestFailure("register answered \(registered.status)") }
        let login = try await postJSON("/auth/login", ["username": username, "password": password])
        guard login.status == 200 else { throw TestFailure("login answered \(login.status)") }
        return try login.json()
    }
}

/// Runs `body` with an HTTP client that does not follow redirects, and shuts the client down.
func withHTTPClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Runs `body` against a freshly started server with a client bound to it.
func withServer<T>(
    _ configuration: AuthTestServer.Configuration = .init(),
    _ body: (AuthTestServer, TestClient) async throws -> T
) async throws -> T {
    try await AuthTestServer.withRunning(configuration: configuration) { server in
        try await withHTTPClient { client in
            try await body(server, TestClient(client: client, baseURL: server.baseURL))
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) throws -> String {
        guard let value = self[key] as? String else { throw TestFailure("no string \(key)") }
        return value
    }
}

/// Opens (and closes) a plain TCP connection; throws when nothing listens on `port`.
func connectTCP(host: String = "127.0.0.1", port: Int) async throws {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: host, port: port)
        .get()
    try await channel.close()
}
