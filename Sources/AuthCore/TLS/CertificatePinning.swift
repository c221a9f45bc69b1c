// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Crypto

/// Public-key pins per host: a connection to a pinned host is used only when the server's
/// certificate, after the standard chain and host name validation, carries one of the host's
/// pinned keys.
///
/// A pin is the SHA-256 digest of a certificate's DER `SubjectPublicKeyInfo`, in base64
/// (what `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary
/// | base64` prints; OkHttp's and HPKP's `sha256/…` spelling is accepted too). Each host needs at
/// least two distinct pins, the key in use and a backup key kept offline, so that a lost or
/// compromised key can be replaced without locking every client out.
///
/// ```swift
/// let pinning = try CertificatePinning(
///     pins: ["api.example.com": ["jH8P6J0U0VLlNrkYdqjB3yk4PAqPbs3mdfYkAxOd0Fs=", "n6Bmzr0q6zHLDw8j1R8P4hE9S4xWlgbGqxSf2VKW8ZQ="]],
///     expires: Date(timeIntervalSince1970: 1_830_000_000)
/// )
/// ```
///
/// Choices the pinning makes:
/// - The pinned key is the **leaf** certificate's (the server's own key), the one certificate that
///   AsyncHTTPClient's TLS handler exposes after its validation; pins of intermediate or root keys
///   never match.
/// - A host pattern `*.example.com` covers every subdomain of `example.com` at any depth, not
///   `example.com` itself. A host's own entry comes before patterns, and a longer pattern before a
///   shorter one: exactly one entry's pins apply to a host.
/// - From ``expires`` on, no pin is checked (an app that is not updated must not stop working when
///   its operator rotates keys); chain validation goes on as always.
/// - In ``Mode/reportOnly`` a mismatch is reported as ``AuthEvent/pinMismatch(_:)`` and the
///   connection is used; in ``Mode/enforce`` it is reported too, and the connection is closed before
///   any request is written on it, with ``AuthError`` code `.pinMismatch`.
public struct CertificatePinning: Sendable {
    /// What a mismatch does.
    public enum Mode: Sendable, Equatable {
        /// Close the connection; the request fails with ``AuthError`` code `.pinMismatch`.
        case enforce
        /// Report the mismatch as an event and use the connection.
        case reportOnly
    }

    /// One host's (or one pattern's) pins.
    public struct Entry: Sendable, Equatable {
        /// The host, lower-case, or a pattern `*.domain`.
        public let pattern: String
        /// The accepted SPKI SHA-256 digests, 32 bytes each.
        public let digests: Set<Data>
    }

    /// The entries, most specific first (hosts, then patterns from the longest).
    public let entries: [Entry]
    /// When the pins stop being checked; nil for never.
    public let expires: Date?
    /// Whether a mismatch closes the connection or is only reported.
    public let mode: Mode
    /// Where mismatches are reported, as ``AuthEvent/pinMismatch(_:)``.
    public let events: AuthEvents?
    /// The time that ``expires`` is compared with.
    public let now: @Sendable () -> Date

    /// Creates a pin set.
    /// - Parameters:
    ///   - pins: For each host (`api.example.com`) or pattern (`*.example.com`), its pins: base64
    ///     SHA-256 digests of `SubjectPublicKeyInfo`, at least two distinct ones.
    ///   - expires: From when the pins are not checked; nil for never.
    ///   - mode: Whether a mismatch closes the connection or is only reported.
    ///   - events: Where mismatches are reported.
    ///   - now: The current time (injected for tests).
    /// - Throws: ``AuthError`` code `.misconfigured` naming the host and what is
    ///   wrong: no hosts, a malformed host or pattern, a pin that is not a base64 SHA-256 digest,
    ///   or fewer than two distinct pins (no backup pin).
    public init(
        pins: [String: [String]],
        expires: Date? = nil,
        mode: Mode = .enforce,
        events: AuthEvents? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(AuthError) {
        guard !pins.isEmpty else {
            throw AuthError(code: .misconfigured, message: "no pinned hosts: give at least one host with its pins, or no pinning")
        }
        var entries: [Entry] = []
        for (host, texts) in pins {
            let pattern = Origin.lowercasedASCII(host)
            guard Self.isValidPattern(pattern) else {
                throw AuthError(code: .misconfigured, message: "\"\(host)\" is not a host name or a pattern *.domain")
            }
            var digests = Set<Data>()
            for text in texts {
                guard let digest = Self.digest(text) else {
                    throw AuthError(code: .misconfigured, message: "a pin of \(host) is not the base64 of a SHA-256 digest (32 bytes), optionally prefixed sha256/")
                }
                digests.insert(digest)
            }
            guard digests.count >= 2 else {
                throw AuthError(code: .misconfigured, message: "\(host) has \(digests.count) distinct pin(s): pin the key in use and at least one backup key, so that a lost key can be replaced")
            }
            entries.append(Entry(pattern: pattern, digests: digests))
        }
        self.entries = entries.sorted { a, b in
            let aWild = a.pattern.hasPrefix("*."), bWild = b.pattern.hasPrefix("*.")
            if aWild != bWild { return !aWild }
            return a.pattern.utf8.count != b.pattern.utf8.count ? a.pattern.utf8.count > b.pattern.utf8.count : a.pattern < b.pattern
        }
        self.expires = expires
        self.mode = mode
        self.events = events
        self.now = now
    }

    /// The entry whose pins apply to `host`, or nil when the host is not pinned. A fully
    /// qualified name (`api.example.com.`) is the same host as without its final dot: TLS checks
    /// the certificate's name without it, so the pins apply too.
    public func entry(forHost host: String) -> Entry? {
        var host = Origin.lowercasedASCII(host)
        if host.hasSuffix("."), host.utf8.count > 1 { host.removeLast() }
        return entries.first { entry in
            if entry.pattern.hasPrefix("*.") {
                return host.hasSuffix(entry.pattern.dropFirst()) && host.utf8.count > entry.pattern.utf8.count - 1
            }
            return entry.pattern == host
        }
    }

    /// The pin of a DER `SubjectPublicKeyInfo`: its SHA-256 digest in base64.
    public static func pin(ofSubjectPublicKeyInfo spki: some DataProtocol) -> String {
        Data(SHA256.hash(data: spki)).base64EncodedString()
    }

    /// What checking a server key against `entry` decided.
    public enum Verdict: Sendable, Equatable {
        /// The key is one of the pins.
        case matched
        /// The pins have expired: not checked.
        case expired
        /// The key is none of the pins; `enforced` says whether the connection must be refused.
        case mismatch(enforced: Bool)
    }

    /// Checks the server key `spki` (DER `SubjectPublicKeyInfo`) of a connection against
    /// `entry`, and reports a mismatch as ``AuthEvent/pinMismatch(_:)``.
    public func check(subjectPublicKeyInfo spki: some DataProtocol, against entry: Entry) -> Verdict {
        if let expires, now() >= expires { return .expired }
        let digest = Data(SHA256.hash(data: spki))
        if entry.digests.contains(digest) { return .matched }
        let enforced = mode == .enforce
        events?.emit(.pinMismatch(PinMismatch(host: entry.pattern, presentedPin: digest.base64EncodedString(), enforced: enforced)))
        return .mismatch(enforced: enforced)
    }

    /// The 32 bytes of a pin written in base64, with or without `sha256/`; nil otherwise.
    private static func digest(_ text: String) -> Data? {
        let body = text.hasPrefix("sha256/") ? String(text.dropFirst(7)) : text
        guard let data = Data(base64Encoded: body), data.count == 32 else { return nil }
        return data
    }

    /// Whether `pattern` is a lower-case host name (letters, digits, `-`, dots between labels), or
    /// `*.` followed by one with at least one dot.
    private static func isValidPattern(_ pattern: String) -> Bool {
        let name = pattern.hasPrefix("*.") ? pattern.dropFirst(2) : Substring(pattern)
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if pattern.hasPrefix("*."), labels.count < 2 { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            }
        }
    }
}
