// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation

/// HMAC-SHA256 (RFC 2104) with the key already absorbed: the inner and outer hash states after
/// the padded key, kept so that each MAC costs only its message's blocks and two finalizations.
///
/// Equivalent to `HMAC<SHA256>`; built from SHA-256's public buffer entry points, which take the
/// bytes directly where `HMAC.update(data:)` goes through `DataProtocol`'s generic regions. The
/// key never appears in a description or a mirror.
struct KeyedSHA256: Sendable, CustomReflectable {
    private let inner: SHA256
    private let outer: SHA256

    init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { bytes in
            if bytes.count > SHA256.blockByteCount {
                SHA256.hash(data: bytes).withUnsafeBytes { digest in
                    for index in 0..<digest.count { block[index] = digest[index] }
                }
            } else {
                for index in 0..<bytes.count { block[index] = bytes[index] }
            }
        }
        var inner = SHA256(), outer = SHA256()
        let innerPad = block.map { $0 ^ 0x36 }, outerPad = block.map { $0 ^ 0x5C }
        innerPad.withUnsafeBytes { inner.update(bufferPointer: $0) }
        outerPad.withUnsafeBytes { outer.update(bufferPointer: $0) }
        self.inner = inner
        self.outer = outer
    }

    /// The MAC of `message`.
    func authenticationCode(for message: UnsafeRawBufferPointer) -> SHA256Digest {
        var inner = self.inner
        inner.update(bufferPointer: message)
        var outer = self.outer
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        return outer.finalize()
    }

    /// The MAC of `message`.
    func authenticationCode(for message: [UInt8]) -> SHA256Digest {
        message.withUnsafeBytes { authenticationCode(for: $0) }
    }

    var customMirror: Mirror { Mirror(self, children: []) }
}

extension SHA256 {
    /// The hex SHA-256 of an empty body.
    static let emptyLowerHexDigest = Array("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".utf8)

    /// The lower-case hex SHA-256 of `body`, as bytes: the payload hash of SigV4 and the body
    /// digest of the HMAC scheme.
    static func lowerHexDigest(of body: Data) -> [UInt8] {
        guard !body.isEmpty else { return emptyLowerHexDigest }
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        hex.appendLowerHex(digest: body.withUnsafeBytes(digest))
        return hex
    }

    /// SHA-256 of the bytes at `buffer`, through swift-crypto's buffer entry point: its generic
    /// `hash(data:)` resolves `DataProtocol` regions at run time, which costs more than hashing
    /// a canonical request.
    static func digest(_ buffer: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(bufferPointer: buffer)
        return hasher.finalize()
    }
}
