// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
import Crypto

/// RFC 9530 `Content-Digest`: a structured dictionary of algorithm → byte sequence digest of the
/// body, such as `sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:`.
///
/// ```swift
/// request.head.headerFields[ContentDigest.fieldName] = ContentDigest.value(for: body, algorithms: [.sha256])
/// try ContentDigest.verify(fieldValue, body: body)
/// ```
public enum ContentDigest {
    /// The digest algorithms supported.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        /// SHA-256.
        case sha256 = "sha-256"
        /// SHA-512.
        case sha512 = "sha-512"

        func digest(_ body: Data) -> Data {
            switch self {
            case .sha256: Data(SHA256.hash(data: body))
            case .sha512: Data(SHA512.hash(data: body))
            }
        }
    }

    /// The field name, `Content-Digest`.
    public static let fieldName = HTTPField.Name.literal("Content-Digest")

    /// The field value for `body` with each of `algorithms`, in order.
    public static func value(for body: Data, algorithms: [Algorithm] = [.sha256]) -> String {
        StructuredField.Dictionary(algorithms.map { algorithm in
            (algorithm.rawValue, .item(StructuredField.Item(.byteSequence(algorithm.digest(body)))))
        }).serialized
    }

    /// Checks `fieldValue` against `body`: it must parse, name at least one supported algorithm,
    /// and every supported digest it holds must match (unknown algorithms are ignored).
    /// - Throws: ``SigningError`` `.malformedContentDigest` or `.contentDigestMismatch`.
    public static func verify(_ fieldValue: String, body: Data) throws(SigningError) {
        let dictionary: StructuredField.Dictionary
        do {
            dictionary = try StructuredField.parseDictionary(fieldValue)
        } catch {
            throw SigningError(code: .malformedContentDigest, message: "Content-Digest is not a structured dictionary", underlying: error)
        }
        var checked = 0
        for entry in dictionary.entries {
            guard let algorithm = Algorithm(rawValue: entry.key) else { continue }
            guard case .item(let item) = entry.member, case .byteSequence(let digest) = item.bareItem else {
                throw SigningError(code: .malformedContentDigest, message: "the \(entry.key) digest is not a byte sequence")
            }
            guard digest == algorithm.digest(body) else {
                throw SigningError(code: .contentDigestMismatch, message: "the body does not match its \(entry.key) Content-Digest")
            }
            checked += 1
        }
        guard checked > 0 else {
            throw SigningError(code: .malformedContentDigest, message: "Content-Digest names no supported algorithm (sha-256, sha-512)")
        }
    }
}
