// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes how AuthFileStore reads record files. A real store is made once in a scratch directory
/// and a bearer token set saved through the vault; each input is then written over that record
/// file twice, as the whole file and as the JSON body of a well-formed container (magic, version
/// 1, length and CRC-32 filled in, so the body decoding is reached), and read back with `get`,
/// the vault's `load` (with and without an AES-GCM cipher) and `items`. Contract: each read
/// returns or throws `CredentialStoreError`. Quarantined copies are removed after each input.
import AuthCore
import AuthFileStore
import Foundation
import FuzzSupport

let key = CredentialKey(namespace: "fuzz", account: "alice", item: CredentialVault.credentialItem)

/// The store, its vaults and the path of the record file, made once per process.
struct Fixture: Sendable {
    let store: FileCredentialStore
    let plain: CredentialVault
    let sealed: CredentialVault
    let recordPath: String
    let accountDirectory: URL
}

let fixture: Fixture = {
    let directory = scratchDirectory("files").appendingPathComponent("store", isDirectory: true)
    let store = try! FileCredentialStore(directory: directory)
    try! blocking {
        try await CredentialVault(store: store).save(BearerTokenSet(accessToken: "a1", refreshToken: "r1", expiresAt: fixedNow), at: key)
    }.get()
    let records = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)!
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "rec" }
    precondition(records.count == 1, "expected one record file, found \(records)")
    let cipher = try! AESGCMCipher(key: Data(repeating: 7, count: 32))
    return Fixture(store: store, plain: CredentialVault(store: store), sealed: CredentialVault(store: store, cipher: cipher),
                   recordPath: records[0].path, accountDirectory: records[0].deletingLastPathComponent())
}()

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    check(bytes)
    check(container(body: bytes))
    return 0
}

/// Writes `bytes` as the record file and reads it every way the store can.
func check(_ bytes: [UInt8]) {
    let f = fixture
    require(FileManager.default.createFile(atPath: f.recordPath, contents: Data(bytes)), "the record file could not be written")
    let store = f.store
    let outcomes: [(String, Result<String, any Error>)] = [
        ("get", blocking { describe(try await store.get(key)) }),
        ("load", blocking { describe(try await f.plain.load(BearerTokenSet.self, at: key)) }),
        ("load sealed", blocking { describe(try await f.sealed.load(BearerTokenSet.self, at: key)) }),
        ("items", blocking { describe(try await store.items(of: key.accountKey)) }),
    ]
    for (name, outcome) in outcomes {
        switch outcome {
        case .success(let value): trace("\(name): \(value)")
        case .failure(let error):
            trace("\(name): \(error)")
            require(error is CredentialStoreError, "\(name) threw \(type(of: error)), not CredentialStoreError: \(error)")
        }
    }
    // Remove quarantined copies (`….rec.corrupt-<time>`) so they do not pile up.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: f.accountDirectory.path)) ?? [] where name.contains(".corrupt-") {
        try? FileManager.default.removeItem(at: f.accountDirectory.appendingPathComponent(name))
    }
}

func describe(_ value: Any?) -> String { value.map { String(describing: $0) } ?? "nil" }

/// A version-1 record container around `body`: "AKFR", version, length, CRC-32 (big-endian).
func container(body: [UInt8]) -> [UInt8] {
    var bytes = Array("AKFR".utf8)
    append(1, width: 2, to: &bytes)
    append(UInt32(truncatingIfNeeded: body.count), width: 4, to: &bytes)
    append(crc32(body), width: 4, to: &bytes)
    return bytes + body
}

func append(_ value: UInt32, width: Int, to bytes: inout [UInt8]) {
    for index in (0..<width).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(index * 8))) }
}

/// CRC-32 (IEEE, reflected polynomial 0xEDB88320), as zlib computes it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}
