// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// Request signing as the signing middleware runs it (`sign(&request, at:)`): AWS SigV4, the HMAC
// header scheme and RFC 9421 (hmac-sha256 and ed25519), for a GET with 5 headers and a query and a
// POST with a 1 KiB body, each against a bare HMAC-SHA256 over the bytes that scheme signs (SigV4:
// the canonical request; HMAC scheme: its string to sign; RFC 9421: the signature base), in the
// same run and paired in the same iteration. Target (issue 19): SigV4 ≥ 20× botocore on both
// shapes, which `Benchmarks/scripts/botocore-sigv4.py` times on the same two requests.
import AuthCore
import AuthSigning
import Benchmark
import BenchmarkSupport
import Crypto
import Foundation
import HTTPTypes

let instant = Date(timeIntervalSince1970: 1_700_000_000)

/// The five headers of a typical API call.
func typicalHeaders(contentType: Bool) throws -> HTTPFields {
    guard let requestID = HTTPField.Name("X-Request-Id") else { throw BenchmarkSetupError("bad field name") }
    var fields: HTTPFields = [
        .accept: "application/json",
        .acceptLanguage: "en-US,en;q=0.8",
        .userAgent: "AuthKit/1.0 (Linux; bench)",
    ]
    fields[requestID] = "7f1c2a4e-52a1-4c61-9d1e-0b7e3f5d9a10"
    if contentType {
        fields[.contentType] = "application/json"
    } else {
        fields[.cacheControl] = "no-cache"
    }
    return fields
}

enum Shape: String, CaseIterable { case get = "GET 5 headers + query", post = "POST 1 KiB body" }

func makeRequest(_ shape: Shape) throws -> AuthRequest {
    switch shape {
    case .get:
        return try AuthRequest(
            method: .get,
            url: BenchmarkSupport.url("https://api.example.com/v1/items?limit=50&cursor=eyJpZCI6MTIzNH0&filter=active&sort=-created"),
            headerFields: try typicalHeaders(contentType: false))
    case .post:
        let item = #"{"id":"0123456789","name":"widget","tags":["a","b","c"],"price":12.5},"#
        var body = "{\"items\":["
        while body.utf8.count < 1_000 { body += item }
        body = String(body.dropLast()) + "]}"
        body += String(repeating: " ", count: max(0, 1_024 - body.utf8.count))
        return try AuthRequest(
            method: .post, url: BenchmarkSupport.url("https://api.example.com/v1/items?dry_run=false"),
            headerFields: try typicalHeaders(contentType: true), body: Data(body.utf8))
    }
}

let sigV4 = SigV4Signer(
    credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
    configuration: SigV4Configuration(region: "eu-west-1", service: "execute-api"))
let hmacKey = SymmetricKey(data: Array("an-hmac-scheme-key-of-32-bytes!!".utf8))
let hmacSigner = HMACRequestSigner(keyID: "client-1", key: hmacKey)
/// RFC 9421 signers covering method, target URI, authority and content type, with the default
/// random nonce and a `created` parameter, as a client would sign.
let messageComponents: [ComponentIdentifier] = [.method, .targetURI, .authority, .header("accept")]
let messageSignerHMAC = HTTPMessageSigner(keyID: "bench-hmac", key: .hmacSHA256(hmacKey), components: messageComponents)
let messageSignerEd25519 = HTTPMessageSigner(
    keyID: "bench-ed25519", key: .ed25519(Curve25519.Signing.PrivateKey()), components: messageComponents
)
/// A nonce of the default generator's shape (16 random bytes as hex), for the baseline's string.
let sampleNonce = "9f86d081884c7d659a2feaa0c55ad015"

/// A key of the SigV4 signing key's size for the baseline HMAC (the baseline's cost does not
/// depend on the key's bytes).
let sigV4BaselineKey = SymmetricKey(data: Array("AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY".utf8))

/// The SigV4 canonical request of a shape: what the baseline MACs.
func sigV4Canonical(_ shape: Shape) throws -> [UInt8] {
    Array(try sigV4.signature(for: makeRequest(shape), at: instant).canonicalRequest.utf8)
}

/// The HMAC scheme's string to sign for a shape, with a nonce of the default generator's shape.
func hmacStringToSign(_ shape: Shape) throws -> [UInt8] {
    let text = hmacSigner.configuration.stringToSign(
        for: try makeRequest(shape), timestamp: String(Int64(instant.timeIntervalSince1970)), nonce: sampleNonce)
    return Array(text.utf8)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(2), maxIterations: 2_000)
    var paired = configuration
    paired.metrics = Paired.metrics

    for shape in Shape.allCases {
        Benchmark("SigV4 sign, \(shape.rawValue)", configuration: paired) { (benchmark: Benchmark, setup: (AuthRequest, [UInt8])) in
            let (request, canonical) = setup
            let key = sigV4BaselineKey
            try await Paired.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    blackHole(HMAC<SHA256>.authenticationCode(for: identity(canonical), using: key))
                }
            } subject: {
                for _ in benchmark.scaledIterations {
                    var signed = identity(request)
                    try await sigV4.sign(&signed, at: instant)
                    blackHole(signed)
                }
            }
        } setup: {
            (try makeRequest(shape), try sigV4Canonical(shape))
        }

        Benchmark("HMAC-SHA256 over the SigV4 canonical request, \(shape.rawValue) (baseline)", configuration: configuration) { (benchmark: Benchmark, bytes: [UInt8]) in
            let key = sigV4BaselineKey
            CPUTime.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    blackHole(HMAC<SHA256>.authenticationCode(for: identity(bytes), using: key))
                }
            }
        } setup: {
            try sigV4Canonical(shape)
        }

        Benchmark("HMAC scheme sign, \(shape.rawValue)", configuration: paired) { (benchmark: Benchmark, setup: (AuthRequest, [UInt8])) in
            let (request, stringToSign) = setup
            try await Paired.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    blackHole(HMAC<SHA256>.authenticationCode(for: identity(stringToSign), using: hmacKey))
                }
            } subject: {
                for _ in benchmark.scaledIterations {
                    var signed = identity(request)
                    try await hmacSigner.sign(&signed, at: instant)
                    blackHole(signed)
                }
            }
        } setup: {
            (try makeRequest(shape), try hmacStringToSign(shape))
        }

        Benchmark("HMAC-SHA256 over the HMAC-scheme string to sign, \(shape.rawValue) (baseline)", configuration: configuration) { (benchmark: Benchmark, bytes: [UInt8]) in
            CPUTime.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    blackHole(HMAC<SHA256>.authenticationCode(for: identity(bytes), using: hmacKey))
                }
            }
        } setup: {
            try hmacStringToSign(shape)
        }

        for (name, signer) in [("hmac-sha256", messageSignerHMAC), ("ed25519", messageSignerEd25519)] {
            Benchmark("RFC 9421 \(name) sign, \(shape.rawValue)", configuration: paired) { (benchmark: Benchmark, setup: (AuthRequest, [UInt8])) in
                let (request, base) = setup
                try await Paired.measure(benchmark) {
                    for _ in benchmark.scaledIterations {
                        blackHole(HMAC<SHA256>.authenticationCode(for: identity(base), using: hmacKey))
                    }
                } subject: {
                    for _ in benchmark.scaledIterations {
                        var signed = identity(request)
                        try await signer.sign(&signed, at: instant)
                        blackHole(signed)
                    }
                }
            } setup: {
                let request = try makeRequest(shape)
                return (request, Array(try signer.signature(for: request, at: instant).base.utf8))
            }
        }
    }
}
