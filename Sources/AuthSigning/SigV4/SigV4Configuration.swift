// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What a ``SigV4Signer`` signs for: region, service and the service's canonicalisation rules.
///
/// ```swift
/// let s3 = SigV4Configuration.s3(region: "eu-west-1")
/// let sts = SigV4Configuration(region: "us-east-1", service: "sts")
/// ```
public struct SigV4Configuration: Sendable, Hashable {
    /// How the canonical URI is made from the request path.
    public enum PathCanonicalization: Sendable, Hashable {
        /// Most services: remove `.` and `..` segments, collapse duplicate slashes, then
        /// percent-encode each segment of the path as sent (which is already encoded once, so the
        /// canonical URI ends up encoded twice: a `%20` on the wire becomes `%2520`).
        case normalizedDoubleEncoded
        /// No normalisation (`.`, `..` and empty segments stay), but the path as sent is
        /// percent-encoded once more, `/` kept: aws-c-auth's `should_normalize_uri_path = false`
        /// with `use_double_uri_encode = true`.
        case doubleEncoded
        /// Amazon S3: no normalisation, no second encoding; each segment is decoded and encoded
        /// once. The signer sends the path in that spelling (`a(1)` goes as `a%281%29`, the same
        /// key), so the canonical URI is the path as sent, byte for byte.
        case s3
    }

    /// Header fields never signed by default, because something between the client and the
    /// service may add, change or drop them: hop-by-hop fields (RFC 9110 §7.6.1, and every
    /// field a `Connection` field names), the fields proxies and tracing systems rewrite, and
    /// the fields the AWS SDKs leave out (`authorization`, `user-agent`, `expect`,
    /// `x-amzn-trace-id`).
    public static let defaultUnsignedHeaders: Set<String> = [
        "authorization", "user-agent", "expect", "x-amzn-trace-id",
        "connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authorization", "proxy-authenticate",
        "traceparent", "tracestate", "baggage", "b3", "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid",
        "x-b3-sampled", "x-b3-flags", "x-cloud-trace-context", "uber-trace-id", "sentry-trace",
        "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "forwarded", "via",
    ]

    /// How the payload is represented in the canonical request.
    public enum Payload: Sendable, Hashable {
        /// Hex SHA-256 of the body.
        case signed
        /// The literal `UNSIGNED-PAYLOAD` (S3 over TLS, presigned URLs).
        case unsigned
    }

    /// Where the session token of temporary credentials goes.
    public enum SessionTokenPlacement: Sendable, Hashable {
        /// Added as `X-Amz-Security-Token` before signing, so it is signed (most services).
        case signed
        /// Added after the signature is computed, unsigned (services that ask for that).
        case appendedAfterSigning
    }

    /// The region, e.g. `us-east-1`.
    public var region: String
    /// The service's signing name, e.g. `s3`, `sts`, `execute-api`.
    public var service: String
    /// Canonical URI rules.
    public var pathCanonicalization: PathCanonicalization
    /// Payload representation in header signing.
    public var payload: Payload
    /// Whether to send (and sign) `x-amz-content-sha256` (required by S3, optional elsewhere).
    ///
    /// When `false`, an `X-Amz-Content-SHA256` field the caller put on the request is kept and
    /// its value is the payload hash of the canonical request (as botocore does): a caller can
    /// sign a precomputed hash or `UNSIGNED-PAYLOAD` that way.
    public var sendsContentSHA256: Bool
    /// Where the session token goes.
    public var sessionTokenPlacement: SessionTokenPlacement
    /// Lower-cased header names never signed (they may change in transit). Fields named in a
    /// `Connection` field are never signed either.
    public var unsignedHeaders: Set<String>

    /// Creates a configuration for a service other than S3.
    public init(
        region: String,
        service: String,
        pathCanonicalization: PathCanonicalization = .normalizedDoubleEncoded,
        payload: Payload = .signed,
        sendsContentSHA256: Bool = false,
        sessionTokenPlacement: SessionTokenPlacement = .signed,
        unsignedHeaders: Set<String> = SigV4Configuration.defaultUnsignedHeaders
    ) {
        self.region = region
        self.service = service
        self.pathCanonicalization = pathCanonicalization
        self.payload = payload
        self.sendsContentSHA256 = sendsContentSHA256
        self.sessionTokenPlacement = sessionTokenPlacement
        self.unsignedHeaders = unsignedHeaders
    }

    /// Amazon S3: S3 path rules and `x-amz-content-sha256`, with the payload signed or not.
    public static func s3(region: String, payload: Payload = .signed) -> Self {
        Self(region: region, service: "s3", pathCanonicalization: .s3, payload: payload, sendsContentSHA256: true)
    }
}
