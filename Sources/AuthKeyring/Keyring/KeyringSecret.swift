// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Secret bytes from or for a keyring: a key, a password.
///
/// The bytes live in one buffer of their own, overwritten with zeros when the value is released,
/// so a key read from the keyring does not linger in freed memory. Its `description`,
/// `debugDescription` and mirror show only the length. Read the bytes deliberately, through
/// ``withUnsafeBytes(_:)``, where they are used.
///
/// ```swift
/// let secret = KeyringSecret(bytes: Array("correct horse battery staple".utf8))
/// print(secret)   // KeyringSecret(28 bytes)
/// let first = secret.withUnsafeBytes { $0.first }
/// ```
public final class KeyringSecret: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // @unchecked: `storage` is written only in the initializers and zeroed in deinit, when no
    // other reference exists; every other access reads it.
    private let storage: UnsafeMutableRawBufferPointer

    /// Copies `bytes` into the secret's own buffer.
    /// - Parameter bytes: The secret; zero the caller's copy when it is no longer needed.
    public init(bytes: some Collection<UInt8>) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
    }

    /// Copies `count` bytes from `source`.
    init(copying source: UnsafeRawBufferPointer) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 1)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        storage.copyMemory(from: source)
        count = source.count
    }

    deinit {
        // Through a volatile-like path the optimizer keeps: the buffer is freed right after.
        memsetZero(storage)
        storage.deallocate()
    }

    /// The number of bytes.
    public let count: Int

    /// Calls `body` with the bytes. Do not keep or copy them beyond what their use needs.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// Whether two secrets hold the same bytes, compared in time independent of where they differ.
    public func isEqual(to other: KeyringSecret) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                var difference: UInt8 = 0
                for index in 0..<mine.count { difference |= mine[index] ^ theirs[index] }
                return difference == 0
            }
        }
    }

    /// The length only, never the bytes.
    public var description: String { "KeyringSecret(\(count) bytes)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the length only, so `dump` shows none of the bytes.
    public var customMirror: Mirror { Mirror(self, children: ["count": count], displayStyle: .class) }
}

/// Overwrites `buffer` with zeros in a way the optimizer does not remove as a dead store
/// (`explicit_bzero` on Linux, `memset_s` on Apple platforms).
func memsetZero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    #if canImport(Glibc)
    explicit_bzero(base, buffer.count)
    #elseif canImport(Darwin)
    _ = memset_s(base, buffer.count, 0, buffer.count)
    #endif
}

/// Overwrites `bytes` with zeros (a copy of a secret the caller is done with).
func zeroize(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { memsetZero($0) }
}

/// Overwrites `data` with zeros.
func zeroize(_ data: inout Data) {
    data.withUnsafeMutableBytes { memsetZero($0) }
}
