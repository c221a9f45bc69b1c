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

/// Presigned URLs and S3 rules, against AWS's documented examples and botocore's output.
@Suite struct SigV4PresignTests {
    /// AWS S3 documentation examples ("Authenticating Requests: Using Query Parameters" and
    /// "Using the Authorization Header"): AKIAIOSFODNN7EXAMPLE, 20130524T000000Z, us-east-1.
    static let docCredentials = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let docDate = Date(timeIntervalSince1970: 1_369_353_600)

    @Test func s3PresignedGETMatchesAWSDocumentation() throws {
        let signer = SigV4Signer(credentials: Self.docCredentials, configuration: .s3(region: "us-east-1"))
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")))
        let presigned = try signer.presign(request, at: Self.docDate, expires: 86_400)
        #expect(presigned.signature == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(presigned.request.url?.absoluteString == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        #expect(presigned.canonicalRequest.hasSuffix("\nhost\nUNSIGNED-PAYLOAD"))
    }

    @Test func presignedURLVerifiesByRecomputation() throws {
        // A verifier holding the same secret strips X-Amz-Signature, rebuilds the signature from
        // the URL's own X-Amz-* values and must get the same one; a changed query must not.
        let signer = SigV4Signer(credentials: Self.docCredentials, configuration: .s3(region: "us-east-1"))
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://examplebucket.s3.amazonaws.com/photos/a%20b.jpg?versionId=3")))
        let presigned = try signer.presign(request, at: Self.docDate, expires: 600)
        let url = try #require(presigned.request.url)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let sent = try #require(items.first { $0.name == "X-Amz-Signature" }?.value)
        #expect(items.first { $0.name == "X-Amz-Expires" }?.value == "600")
        #expect(items.first { $0.name == "X-Amz-SignedHeaders" }?.value == "host")
        #expect(presigned.canonicalRequest.split(separator: "\n")[1] == "/photos/a%20b.jpg")

        let again = try signer.presign(request, at: Self.docDate, expires: 600)
        #expect(again.signature == sent)
        let tampered = try AuthRequest(method: .get, url: #require(URL(string: "https://examplebucket.s3.amazonaws.com/photos/a%20b.jpg?versionId=4")))
        #expect(try signer.presign(tampered, at: Self.docDate, expires: 600).signature != sent)
    }

    @Test func presignWithSessionTokenMatchesBotocore() throws {
        // Reference: botocore 1.43 SigV4QueryAuth, same inputs, clock fixed at 20150830T123600Z.
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "SESSIONTOKEN/with+chars=")
        let signer = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "service"))
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://example.amazonaws.com/some%20path/./x?Param2=b&Param1=a%20c")))
        let presigned = try signer.presign(request, at: SigV4VectorTests.date, expires: 3600, payload: .signed)
        #expect(presigned.canonicalRequest.split(separator: "\n")[1] == "/some%2520path/x")
        #expect(presigned.request.url?.absoluteString == "https://example.amazonaws.com/some%20path/./x?Param2=b&Param1=a%20c&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20150830%2Fus-east-1%2Fservice%2Faws4_request&X-Amz-Date=20150830T123600Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Security-Token=SESSIONTOKEN%2Fwith%2Bchars%3D&X-Amz-Signature=1a7a9db79099f5b6b49fc3a45bcbdb5c329535ac1c4748f07b1f000df59e741e")
    }

    @Test func presignRejectsOutOfRangeExpiry() throws {
        let signer = SigV4Signer(credentials: Self.docCredentials, configuration: .s3(region: "us-east-1"))
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")))
        for expires in [0, 604_801] {
            #expect(throws: SigningError.self) { try signer.presign(request, at: Self.docDate, expires: expires) }
        }
    }

    @Test func s3HeaderSigningMatchesAWSDocumentation() throws {
        // GET Object example: Range header, x-amz-content-sha256 of the empty payload.
        let signer = SigV4Signer(credentials: Self.docCredentials, configuration: .s3(region: "us-east-1"))
        var fields = HTTPFields()
        fields[try .named("Range")] = "bytes=0-9"
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")), headerFields: fields)
        let result = try signer.signature(for: request, at: Self.docDate)
        #expect(result.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(result.request.head.headerFields[try .named("x-amz-content-sha256")] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func s3PathIsNotNormalizedAndEncodedOnce() throws {
        let s3 = SigV4Signer(credentials: Self.docCredentials, configuration: .s3(region: "us-east-1"))
        let other = SigV4Signer(credentials: Self.docCredentials, configuration: .init(region: "us-east-1", service: "service"))
        let request = AuthRequest(head: HTTPRequest(method: .get, scheme: "https", authority: "b.s3.amazonaws.com", path: "//a/./b%20c/../d"))
        #expect(try s3.signature(for: request, at: Self.docDate).canonicalRequest.split(separator: "\n")[1] == "//a/./b%20c/../d")
        #expect(try other.signature(for: request, at: Self.docDate).canonicalRequest.split(separator: "\n")[1] == "/a/d")
    }

    @Test func unsignedPayloadAndSignedSessionToken() throws {
        var configuration = SigV4Configuration(region: "us-east-1", service: "service", payload: .unsigned, sendsContentSHA256: true)
        configuration.sessionTokenPlacement = .signed
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token")
        let signer = SigV4Signer(credentials: credentials, configuration: configuration)
        let request = try AuthRequest(method: .put, url: #require(URL(string: "https://example.amazonaws.com/x")), body: Data("payload".utf8))
        let result = try signer.signature(for: request, at: Self.docDate)
        #expect(result.canonicalRequest.hasSuffix("\nUNSIGNED-PAYLOAD"))
        #expect(result.signedHeaders == "host;x-amz-content-sha256;x-amz-date;x-amz-security-token")
        #expect(result.canonicalRequest.contains("x-amz-security-token:token\n"))
    }

    @Test func credentialsNeverShowSecrets() {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "SECRET-KEY-VALUE", sessionToken: "SESSION-TOKEN-VALUE")
        var dumped = ""
        dump(credentials, to: &dumped)
        let signer = SigV4Signer(credentials: credentials, configuration: .init(region: "us-east-1", service: "s"))
        var dumpedSigner = ""
        dump(signer, to: &dumpedSigner)
        for text in [credentials.description, credentials.debugDescription, String(reflecting: credentials), dumped, signer.description, dumpedSigner] {
            #expect(text.contains("AKIDEXAMPLE"))
            #expect(!text.contains("SECRET-KEY-VALUE"))
            #expect(!text.contains("SESSION-TOKEN-VALUE"))
        }
    }

    @Test func aReusedSignerSignsEachDayAsAFreshSignerDoes() throws {
        let configuration = SigV4Configuration(region: "us-east-1", service: "sts")
        let reused = SigV4Signer(credentials: Self.docCredentials, configuration: configuration)
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://sts.amazonaws.com/?Action=GetCallerIdentity")))
        let days = [Self.docDate, Self.docDate.addingTimeInterval(86_400), Self.docDate.addingTimeInterval(3_600), Self.docDate]
        for date in days {
            let fresh = SigV4Signer(credentials: Self.docCredentials, configuration: configuration)
            let expected = try fresh.signature(for: request, at: date)
            let actual = try reused.signature(for: request, at: date)
            #expect(actual.signature == expected.signature)
            #expect(actual.stringToSign == expected.stringToSign)
        }
        var dumped = ""
        dump(reused, to: &dumped)
        #expect(!dumped.contains("wJalrXUtnFEMI"))
        #expect(!dumped.contains("SymmetricKey"))
    }
}
