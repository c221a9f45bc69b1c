// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// A setup step of a benchmark failed; the benchmark reports it instead of measuring.
public struct BenchmarkSetupError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// Creates an error with a message that says what failed.
    public init(_ description: String) { self.description = description }
}

/// Small helpers shared by the benchmark suites: URLs, temporary directories and sample records.
public enum BenchmarkSupport {
    /// Parses an absolute URL, throwing instead of trapping when the literal is wrong.
    public static func url(_ string: String) throws -> URL {
        guard let url = URL(string: string) else { throw BenchmarkSetupError("not a URL: \(string)") }
        return url
    }

    /// Creates a new, empty, private directory under the system temporary directory.
    public static func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }

    /// Removes a directory made by ``makeTemporaryDirectory(_:)``; failures are ignored.
    public static func removeDirectory(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The key of the `index`-th benchmark account's credential record.
    public static func key(_ index: Int) -> CredentialKey {
        CredentialKey(namespace: "bench", account: "user-\(index)", item: "credential")
    }

    /// A realistic record: the JSON of a bearer token set (~300 bytes), as `CredentialVault` stores it.
    public static func envelope(_ index: Int, now: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) -> Envelope {
        let json = """
            {"accessToken":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLVx(index)IiwiZXhwIjoxNzAwMDAzNjAwfQ.c2lnbmF0dXJlLXBsYWNlaG9sZGVy",\
            "refreshToken":"rt-\(index)-0123456789abcdef0123456789abcdef","expiresAt":\(now.timeIntervalSinceReferenceDate + 3600),\
            "scope":"openid profile email","tokenType":"Bearer"}
            """
        return Envelope(kind: "bearer", payload: Data(json.utf8), updatedAt: now, expiresAt: now.addingTimeInterval(3600))
    }
}
