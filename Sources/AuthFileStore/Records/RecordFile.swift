// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// The bytes of one record file: a small versioned container around a JSON body.
///
/// Layout (big-endian integers):
/// ```
/// 0   4 bytes  magic "AKFR"
/// 4   2 bytes  container version (1)
/// 6   4 bytes  body length n
/// 10  4 bytes  CRC-32 of the body
/// 14  n bytes  body: JSON of the key components and the envelope fields (payload in base64)
/// ```
/// The file must be exactly `14 + n` bytes. A short, long, garbled or foreign file fails to
/// decode with a reason; a file whose version is newer than ``version`` is reported as such and
/// is not treated as corrupted.
struct RecordFile: Equatable {
    /// The key the record was written for, in canonical (NFC) form.
    var key: CredentialKey
    /// The record.
    var envelope: Envelope

    /// The container version this code writes and reads.
    static let version: UInt16 = 1
    /// The largest record file read back; anything larger is taken as damage.
    static let maximumSize = 16 << 20
    private static let magic: [UInt8] = Array("AKFR".utf8)
    private static let headerSize = 14

    /// Why bytes are not a record this code can use.
    enum DecodeFailure: Error, Equatable {
        /// Not a record, or damaged; the text says how.
        case corrupted(String)
        /// Written by a newer container version.
        case newerVersion(Int)
    }

    /// The fields of the JSON body.
    private struct Body: Codable {
        var namespace: String
        var account: String
        var item: String
        var formatVersion: Int
        var kind: String
        var payload: Data
        var updatedAt: Double
        var expiresAt: Double?
    }

    /// The file bytes of this record.
    func encoded() throws -> [UInt8] {
        let body = Body(
            namespace: key.namespace, account: key.account, item: key.item,
            formatVersion: envelope.formatVersion, kind: envelope.kind, payload: envelope.payload,
            updatedAt: envelope.updatedAt.timeIntervalSince1970,
            expiresAt: envelope.expiresAt?.timeIntervalSince1970
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = [UInt8](try encoder.encode(body))
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + json.count)
        Self.append(UInt32(Self.version), width: 2, to: &bytes)
        Self.append(UInt32(json.count), width: 4, to: &bytes)
        Self.append(CRC32.checksum(json), width: 4, to: &bytes)
        bytes += json
        return bytes
    }

    /// Decodes file bytes.
    /// - Throws: ``DecodeFailure``.
    static func decode(_ bytes: [UInt8]) throws(DecodeFailure) -> RecordFile {
        guard bytes.count >= headerSize else {
            throw .corrupted("the file is \(bytes.count) bytes, shorter than a record header")
        }
        guard Array(bytes[0..<4]) == magic else { throw .corrupted("the file does not start with a record marker") }
        let version = read(bytes, at: 4, width: 2)
        guard version != 0 else { throw .corrupted("the record container version is 0") }
        guard version <= UInt32(Self.version) else { throw .newerVersion(Int(version)) }
        let length = Int(read(bytes, at: 6, width: 4))
        guard bytes.count == headerSize + length else {
            throw .corrupted("the file is \(bytes.count) bytes but its header announces \(headerSize + length) (torn or truncated write)")
        }
        let json = bytes[headerSize...]
        guard CRC32.checksum(json) == read(bytes, at: 10, width: 4) else {
            throw .corrupted("the record checksum does not match its contents")
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(json))
        } catch {
            throw .corrupted("the record body is not valid JSON of a record")
        }
        return RecordFile(
            key: CredentialKey(namespace: body.namespace, account: body.account, item: body.item),
            envelope: Envelope(
                formatVersion: body.formatVersion, kind: body.kind, payload: body.payload,
                updatedAt: Date(timeIntervalSince1970: body.updatedAt),
                expiresAt: body.expiresAt.map { Date(timeIntervalSince1970: $0) }
            )
        )
    }

    private static func append(_ value: UInt32, width: Int, to bytes: inout [UInt8]) {
        for index in (0..<width).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(index * 8))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt32 {
        (0..<width).reduce(UInt32(0)) { ($0 << 8) | UInt32(bytes[offset + $1]) }
    }
}
