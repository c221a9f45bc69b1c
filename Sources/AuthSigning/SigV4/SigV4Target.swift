// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// The request target a SigV4 signature is made for, which is the target the request is sent with.
///
/// **What is signed is what is sent.** Before it signs, the signer writes the request's target
/// in the spelling below onto the request, and builds the canonical URI and the canonical query
/// from that same string. A verifier recomputes the signature from the target it receives, so
/// the target must reach it byte for byte: the transports send it as given or refuse it with a
/// typed error (`HTTPClientTransport`, `URLSessionTransport`).
///
/// The spelling is the canonical one wherever SigV4 decodes and encodes again, so that a verifier
/// that canonicalizes (AWS) and one that signs the target as it arrived (botocore's
/// `S3SigV4Auth`, moto) compute the same canonical request:
/// - S3 (``SigV4Configuration/PathCanonicalization/s3``): each path segment decoded to bytes and
///   RFC 3986-encoded once, `/` kept between segments. The canonical URI is then the path as
///   sent. A key written `a(1)` is sent as `a%281%29`, the same S3 key, because S3 decodes keys.
/// - Other services: the path as given. Their canonical URI is that path encoded once more
///   (normalized first for ``SigV4Configuration/PathCanonicalization/normalizedDoubleEncoded``),
///   a function of the bytes sent, so it is not rewritten.
/// - The query, for every service: each name and value decoded and encoded again (`+` is a
///   literal plus, `%2B`), pairs kept in their order, a pair without `=` kept without it, empty
///   pairs dropped. The canonical query is these pairs sorted.
enum SigV4Target {
    /// `target` (path and query, origin form) as it is signed and sent under `rule`.
    static func wireForm(of target: String, rule: SigV4Configuration.PathCanonicalization) -> String {
        let (path, query) = CanonicalQuery.split(target: target)
        var out: [UInt8] = []
        out.reserveCapacity(target.utf8.count + 16)
        if rule == .s3 {
            SigV4Canonicalizer.appendCanonicalURI(path, rule: .s3, to: &out)
        } else {
            CanonicalBytes.withBytes(of: path) { out.append(contentsOf: $0) }
        }
        if let query {
            let mark = out.count
            out.append(UInt8(ascii: "?"))
            CanonicalBytes.withBytes(of: query) { appendReencodedPairs(of: $0, to: &out) }
            if out.count == mark + 1 { out.removeLast() }   // no pair left: no `?`
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the pairs of `query` (`&`-separated), each name and value decoded and encoded again,
    /// in their order; empty pairs are dropped.
    private static func appendReencodedPairs(of query: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var start = 0
        var wrotePair = false
        while start < query.count {
            var end = start
            while end < query.count, query[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                if wrotePair { out.append(UInt8(ascii: "&")) }
                wrotePair = true
                var equals = start
                while equals < end, query[equals] != UInt8(ascii: "=") { equals += 1 }
                out.appendReencoding(of: UnsafeBufferPointer(rebasing: query[start..<equals]))
                if equals < end {
                    out.append(UInt8(ascii: "="))
                    out.appendReencoding(of: UnsafeBufferPointer(rebasing: query[(equals + 1)..<end]))
                }
            }
            start = end + 1
        }
    }
}
