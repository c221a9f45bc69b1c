// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Crypto
import Foundation
import HTTPTypes
import Testing

/// The official AWS SigV4 test suite in Tests/Vectors/sigv4: every case folder on disk.
@Suite struct SigV4VectorTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let sessionToken = "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="
    /// 20150830T123600Z.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    /// Every folder under sigv4/ that holds a `.req` file, as a path relative to sigv4/.
    static func caseFolders() -> [String] {
        guard let root = TestSupport.vectorsDirectory()?.appendingPathComponent("sigv4"),
              let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".req") }
            .map { ($0 as NSString).deletingLastPathComponent }
            .sorted()
    }

    static func file(_ folder: String, _ ext: String) throws -> String {
        let root = try #require(TestSupport.vectorsDirectory()).appendingPathComponent("sigv4").appendingPathComponent(folder)
        let name = (folder as NSString).lastPathComponent
        return try String(contentsOf: root.appendingPathComponent("\(name).\(ext)"), encoding: .utf8)
    }

    @Test func suiteIsPresent() {
        let folders = Self.caseFolders()
        #expect(folders.count >= 14)
        #expect(folders.contains("normalize-path/get-space"))
        #expect(folders.contains { $0.hasPrefix("post-sts-token/") })
    }

    @Test(arguments: SigV4VectorTests.caseFolders())
    func vector(_ folder: String) async throws {
        let request = try TestSupport.parseRawRequest(try Self.file(folder, "req"))
        var credentials = Self.credentials
        var configuration = SigV4Configuration(region: "us-east-1", service: "service")
        if folder.contains("post-sts-header") {
            // post-sts-token-readme.txt: "before" signs the token, "after" adds it after signing.
            credentials = AWSCredentials(accessKeyID: credentials.accessKeyID, secretAccessKey: credentials.secretAccessKey, sessionToken: Self.sessionToken)
            configuration.sessionTokenPlacement = folder.contains("header-after") ? .appendedAfterSigning : .signed
        }
        let signer = SigV4Signer(credentials: credentials, configuration: configuration)
        let result = try signer.signature(for: request, at: Self.date)
        #expect(result.canonicalRequest == (try Self.file(folder, "creq")))
        var signed = request
        try await signer.sign(&signed, at: Self.date)
        let expectedSTS = try Self.file(folder, "sts")
        let expectedAuthz = try Self.file(folder, "authz")
        if folder == Self.inconsistentCase {
            // The suite's .sts and .authz of this case were made from another request than its
            // .req/.creq (see `inconsistentCaseSTSComesFromAnotherRequest`).
            withKnownIssue("the published .sts/.authz do not derive from the published .creq") {
                #expect(result.stringToSign == expectedSTS)
                #expect(result.authorization == expectedAuthz)
            }
        } else {
            #expect(result.stringToSign == expectedSTS)
            #expect(result.authorization == expectedAuthz)
            #expect(signed.head.headerFields[.authorization] == expectedAuthz)
        }
        if credentials.sessionToken != nil {
            #expect(signed.head.headerFields[try .named("X-Amz-Security-Token")] == Self.sessionToken)
        }
    }

    static let inconsistentCase = "post-x-www-form-urlencoded-parameters"

    /// The .sts of `post-x-www-form-urlencoded-parameters` hashes a canonical request whose
    /// Content-Type says `charset=utf8` and that has no Content-Length; the .authz signature is
    /// the HMAC of that .sts. Signing that variant reproduces both exactly.
    @Test func inconsistentCaseSTSComesFromAnotherRequest() throws {
        var request = try TestSupport.parseRawRequest(try Self.file(Self.inconsistentCase, "req"))
        request.head.headerFields[.contentType] = "application/x-www-form-urlencoded; charset=utf8"
        request.head.headerFields[.contentLength] = nil
        let signer = SigV4Signer(credentials: Self.credentials, configuration: .init(region: "us-east-1", service: "service"))
        let result = try signer.signature(for: request, at: Self.date)
        #expect(result.stringToSign == (try Self.file(Self.inconsistentCase, "sts")))
        let authz = try Self.file(Self.inconsistentCase, "authz")
        #expect(authz.hasSuffix("Signature=\(result.signature)"))
    }

    @Test func signingKeyDerivationChain() {
        // AWS General Reference example: secret wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY,
        // 20120215, us-east-1, iam.
        let key = SigV4SigningKey.derive(secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", day: "20120215", region: "us-east-1", service: "iam")
        let hex = key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
        #expect(hex == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }
}
