// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The cacheable endpoints under `/cache`, each counting the requests it answers; see
/// ``CacheEndpoints`` for the paths, headers and counter names.
struct CacheRoutes: RouteGroup {
    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let hits = CacheHits(recorder: environment.counters)
        router.get("/cache/max-age/:n") { _, context -> Response in
            let seconds = try context.parameters.require("n", as: Int.self)
            return Self.text("max-age \(seconds) #\(hits.record("max-age"))", [.cacheControl: "max-age=\(seconds)"])
        }
        router.get("/cache/etag") { request, _ -> Response in
            hits.record("etag")
            let headers: HTTPFields = [.eTag: CacheEndpoints.etag, .cacheControl: "max-age=60"]
            if request.headers[.ifNoneMatch] == CacheEndpoints.etag {
                hits.record("etag.304")
                return Response(status: .notModified, headers: headers)
            }
            return Self.text("etag body #\(hits.record("etag.200"))", headers)
        }
        router.get("/cache/last-modified") { request, _ -> Response in
            hits.record("last-modified")
            let headers: HTTPFields = [.lastModified: CacheEndpoints.lastModified, .cacheControl: "max-age=0"]
            if request.headers[.ifModifiedSince] == CacheEndpoints.lastModified {
                hits.record("last-modified.304")
                return Response(status: .notModified, headers: headers)
            }
            return Self.text("last-modified body #\(hits.record("last-modified.200"))", headers)
        }
        router.get("/cache/no-store") { _, _ -> Response in
            Self.text("no-store #\(hits.record("no-store"))", [.cacheControl: "no-store"])
        }
        router.get("/cache/private") { _, _ -> Response in
            Self.text("private #\(hits.record("private"))", [.cacheControl: "private, max-age=60"])
        }
        router.get("/cache/set-cookie") { _, _ -> Response in
            Self.text("set-cookie #\(hits.record("set-cookie"))", [.cacheControl: "max-age=60", .setCookie: "session=s3cr3t; HttpOnly"])
        }
        let document = Mutex((value: "v0", releases: 0))
        router.get("/cache/document") { request, _ -> Response in
            let (value, releases) = document.withLock { ($0.value, $0.releases) }
            let count = hits.record("document.get")
            if request.headers[CacheEndpoints.holdField] != nil {
                // Held until the next release, at most a minute.
                let deadline = ContinuousClock.now + .seconds(60)
                while document.withLock({ $0.releases }) == releases, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            return Self.text("document \(value) #\(count)", [.cacheControl: "private, max-age=60"])
        }
        router.put("/cache/document") { request, _ -> Response in
            let value = String(decoding: try await request.collectData(upTo: 1024), as: UTF8.self)
            document.withLock { $0.value = value }
            hits.record("document.put")
            return Response(status: .noContent)
        }
        router.post("/cache/document/release") { _, _ -> Response in
            document.withLock { $0.releases += 1 }
            return Response(status: .noContent)
        }
        router.get("/cache/user") { request, _ -> Response in
            let count = hits.record("user")
            switch await Self.user(of: request, environment: environment) {
            case .success(let name):
                return Self.text("user \(name) #\(count)", [.cacheControl: "private, max-age=60"])
            case .failure(let rejection):
                return rejection.response
            }
        }
    }

    /// Who `/cache/user` answers for: the bearer token's user when a bearer token is sent, else
    /// the Basic user name, else `anonymous`.
    static func user(of request: Request, environment: RouteEnvironment) async -> Result<String, AuthTestServerError> {
        guard request.bearerToken != nil else { return .success(basicUser(request.headers[.authorization]) ?? "anonymous") }
        switch await environment.authenticate(request) {
        case .failure(let rejection):
            return .failure(rejection)
        case .success(let claims):
            if claims.isGuest { return .success(claims.sub) }
            guard let user = await environment.state.user(id: claims.sub) else {
                return .failure(AuthTestServerError(.accessTokenRevoked, "the token's user no longer exists"))
            }
            return .success(user.username)
        }
    }

    /// The user name of a Basic `Authorization` value (RFC 7617); the password is never read.
    static func basicUser(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1])),
              let text = String(data: decoded, encoding: .utf8) else { return nil }
        return text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    private static func text(_ body: String, _ headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The hit counts of one server's cache routes: each hit is numbered here (the number goes in
/// the body) and recorded in the server's counters as `cache.<name>`.
final class CacheHits: Sendable {
    private let numbers = Mutex<[String: Int]>([:])
    private let recorder: CounterRecorder

    init(recorder: CounterRecorder) {
        self.recorder = recorder
    }

    /// Counts a hit of `name` and returns its number on this server, starting at 1.
    @discardableResult
    func record(_ name: String) -> Int {
        let number = numbers.withLock { numbers in
            numbers[name, default: 0] += 1
            return numbers[name, default: 0]
        }
        recorder.record(.custom(CacheEndpoints.counter(name)))
        return number
    }
}
