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

/// Checks an AWS SigV4 `Authorization` header the way a service does: parse it, check the scope
/// and the `X-Amz-Date`, then sign the received request again, with only the header fields the
/// client listed in `SignedHeaders`, and compare the signatures.
struct SignedSigV4Verifier: Sendable {
    /// The access key id → credentials the server knows.
    let credentials: @Sendable (String) -> AWSCredentials?
    /// The region and service the scope must name.
    let configuration: SigV4Configuration
    /// How far `X-Amz-Date` may be from the server clock, in seconds.
    let tolerance: TimeInterval
    /// The server clock.
    let now: @Sendable () -> Date

    private struct Header {
        var accessKeyID: String
        var scope: [Substring]
        var signedHeaders: String
        var signature: String
    }

    /// Verifies `request` and returns the access key id it was signed with.
    /// - Throws: ``SignatureRejection`` naming the failed check.
    func verify(_ request: AuthRequest) throws(SignatureRejection) -> String {
        let fields = request.head.headerFields
        guard let authorization = fields[.authorization] else {
            throw SignatureRejection(code: "missingHeader", reason: "the Authorization field is missing")
        }
        let header = try parse(authorization)
        guard let name = HTTPField.Name("X-Amz-Date"), let amzDate = fields[name], let date = Self.parseAmzDate(amzDate) else {
            throw SignatureRejection(code: "badTimestamp", reason: "the X-Amz-Date field is missing or not yyyyMMdd'T'HHmmss'Z'")
        }
        let skew = date.timeIntervalSince(now())
        guard abs(skew) <= tolerance else {
            throw SignatureRejection(code: "expired", reason: "X-Amz-Date is \(Int(skew.rounded())) s from the server clock; at most \(Int(tolerance)) s is allowed")
        }
        let expectedScope: [Substring] = [amzDate.prefix(8), Substring(configuration.region), Substring(configuration.service), "aws4_request"]
        guard header.scope == expectedScope else {
            throw SignatureRejection(code: "badScope", reason: "the credential scope must be <X-Amz-Date day>/\(configuration.region)/\(configuration.service)/aws4_request")
        }
        guard let known = credentials(header.accessKeyID) else {
            throw SignatureRejection(code: "unknownKey", reason: "no key is known for the access key id in the credential")
        }
        let signedNames = Set(header.signedHeaders.split(separator: ";").map(String.init))
        guard signedNames.contains("host"), signedNames.contains("x-amz-date") else {
            throw SignatureRejection(code: "requiredHeaderNotSigned", reason: "SignedHeaders must include host and x-amz-date")
        }
        // Sign again what the client signed: the listed fields only (the transport adds others,
        // such as Content-Length), host from the authority.
        var received = request
        received.head.headerFields = HTTPFields(fields.filter { signedNames.contains($0.name.canonicalName) })
        let expected: SigV4Signature
        do {
            expected = try SigV4Signer(credentials: known, configuration: configuration).signature(for: received, at: date)
        } catch {
            throw SignatureRejection(code: "invalidRequest", reason: "the request cannot be signed again: \(error)")
        }
        guard expected.signedHeaders == header.signedHeaders else {
            throw SignatureRejection(code: "signedHeaderMissing", reason: "a field listed in SignedHeaders is not in the request")
        }
        guard Self.constantTimeEqual(expected.signature, header.signature.lowercased()) else {
            throw SignatureRejection(code: "badSignature", reason: "the signature does not match the request")
        }
        return header.accessKeyID
    }

    /// Parses `AWS4-HMAC-SHA256 Credential=AKID/day/region/service/aws4_request, SignedHeaders=…, Signature=…`.
    private func parse(_ value: String) throws(SignatureRejection) -> Header {
        let prefix = SigV4Signer.algorithm + " "
        guard value.hasPrefix(prefix) else {
            throw SignatureRejection(code: "unsupportedAlgorithm", reason: "the Authorization field is not \(SigV4Signer.algorithm)")
        }
        var parts: [String: String] = [:]
        for item in value.dropFirst(prefix.count).split(separator: ",") {
            let pair = item.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.firstIndex(of: "=") else { continue }
            parts[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        guard let credential = parts["Credential"], let signedHeaders = parts["SignedHeaders"], let signature = parts["Signature"] else {
            throw SignatureRejection(code: "malformedAuthorization", reason: "the Authorization field needs Credential, SignedHeaders and Signature")
        }
        let credentialParts = credential.split(separator: "/", omittingEmptySubsequences: false)
        guard credentialParts.count == 5 else {
            throw SignatureRejection(code: "malformedAuthorization", reason: "the Credential must be <access key id>/<day>/<region>/<service>/aws4_request")
        }
        return Header(accessKeyID: String(credentialParts[0]), scope: Array(credentialParts[1...]), signedHeaders: signedHeaders, signature: signature)
    }

    /// Parses `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func parseAmzDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard bytes[range].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return Int(String(decoding: bytes[range], as: UTF8.self))
        }
        var parts = DateComponents()
        parts.year = number(0..<4)
        parts.month = number(4..<6)
        parts.day = number(6..<8)
        parts.hour = number(9..<11)
        parts.minute = number(11..<13)
        parts.second = number(13..<15)
        guard [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].allSatisfy({ $0 != nil }) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: parts)
    }

    /// Compares two strings without stopping at the first difference.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
