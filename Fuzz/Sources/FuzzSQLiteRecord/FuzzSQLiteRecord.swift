// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes how AuthSQLiteStore reads stored rows. A real store is opened once in a scratch
/// directory and a bearer token set saved through the vault; each input then replaces the row of
/// `credential_record` through a second sqlite3 connection, with columns typed as the input says,
/// and the store reads it back: `get`, the vault's `load` (with and without an AES-GCM cipher),
/// and the listings. Contract: each read returns or throws `CredentialStoreError`.
///
/// Input: up to eight lines, the columns `kind`, `format_version`, `payload`, `updated_at`,
/// `expires_at`, `namespace`, `account`, `item` (a missing or empty key column keeps the saved
/// key). A line's first byte picks the SQLite type of the rest: `n` NULL, `i` integer, `r` real
/// (both written as decimal text), `R` real from 8 raw little-endian bytes, `t` text, `b` blob;
/// any other first byte makes the whole line a blob.
import AuthCore
import AuthSQLiteStore
import Foundation
import FuzzSupport
import GRDBSQLite

let key = CredentialKey(namespace: "fuzz", account: "alice", item: CredentialVault.credentialItem)
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The store, its vaults and the writer connection, made once per process.
struct Fixture: @unchecked Sendable {
    let store: SQLiteCredentialStore
    let plain: CredentialVault
    let sealed: CredentialVault
    let writer: OpaquePointer
    let insert: OpaquePointer
}

let fixture: Fixture = {
    let path = scratchDirectory("sqlite").appendingPathComponent("store.sqlite").path
    let opened = blocking { () async throws -> SQLiteCredentialStore in
        let store = try await SQLiteCredentialStore.open(at: path)
        try await CredentialVault(store: store).save(BearerTokenSet(accessToken: "a1", refreshToken: "r1", expiresAt: fixedNow), at: key)
        return store
    }
    let store = try! opened.get()
    var db: OpaquePointer?
    precondition(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, "cannot open \(path)")
    precondition(sqlite3_exec(db, "PRAGMA synchronous = OFF; PRAGMA busy_timeout = 5000", nil, nil, nil) == SQLITE_OK)
    var insert: OpaquePointer?
    precondition(sqlite3_prepare_v2(db, """
        INSERT INTO credential_record (kind, format_version, payload, updated_at, expires_at, namespace, account, item)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """, -1, &insert, nil) == SQLITE_OK)
    let cipher = try! AESGCMCipher(key: Data(repeating: 7, count: 32))
    return Fixture(store: store, plain: CredentialVault(store: store), sealed: CredentialVault(store: store, cipher: cipher),
                   writer: db!, insert: insert!)
}()

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fields = FuzzInput(data, size).fields(8)
    let f = fixture
    sqlite3_exec(f.writer, "BEGIN; DELETE FROM credential_record", nil, nil, nil)
    let defaults = [Array(key.namespace.utf8), Array(key.account.utf8), Array(key.item.utf8)]
    for (index, field) in fields.enumerated() {
        let column = Int32(index + 1)
        if index >= 5, field.isEmpty {
            bindBlob(defaults[index - 5], column)
        } else {
            bind(field, column)
        }
    }
    let inserted = sqlite3_step(f.insert)
    sqlite3_reset(f.insert)
    sqlite3_clear_bindings(f.insert)
    sqlite3_exec(f.writer, "COMMIT", nil, nil, nil)
    trace("insert \(inserted == SQLITE_DONE ? "ok" : String(cString: sqlite3_errmsg(f.writer)))")

    let store = f.store
    let outcomes: [(String, Result<String, any Error>)] = [
        ("get", blocking { describe(try await store.get(key)) }),
        ("load", blocking { describe(try await f.plain.load(BearerTokenSet.self, at: key)) }),
        ("load sealed", blocking { describe(try await f.sealed.load(BearerTokenSet.self, at: key)) }),
        ("items", blocking { describe(try await store.items(of: key.accountKey)) }),
        ("accounts", blocking { describe(try await store.accounts(in: key.namespace)) }),
        ("namespaces", blocking { describe(try await store.namespaces()) }),
    ]
    for (name, outcome) in outcomes {
        switch outcome {
        case .success(let value): trace("\(name): \(value)")
        case .failure(let error):
            trace("\(name): \(error)")
            require(error is CredentialStoreError, "\(name) threw \(type(of: error)), not CredentialStoreError: \(error)")
        }
    }
    return 0
}

func describe(_ value: Any?) -> String { value.map { String(describing: $0) } ?? "nil" }

/// Binds one input line as the SQLite value it describes.
func bind(_ field: [UInt8], _ column: Int32) {
    let insert = fixture.insert
    guard let type = field.first else { return bindBlob([], column) }
    let rest = Array(field.dropFirst())
    let text = String(decoding: rest, as: UTF8.self)
    switch type {
    case UInt8(ascii: "n"): sqlite3_bind_null(insert, column)
    case UInt8(ascii: "i"): sqlite3_bind_int64(insert, column, Int64(text) ?? 0)
    case UInt8(ascii: "r"): sqlite3_bind_double(insert, column, Double(text) ?? 0)
    case UInt8(ascii: "R"):
        let bits = rest.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        sqlite3_bind_double(insert, column, Double(bitPattern: bits))
    case UInt8(ascii: "t"): sqlite3_bind_text(insert, column, text, -1, transient)
    case UInt8(ascii: "b"): bindBlob(rest, column)
    default: bindBlob(field, column)
    }
}

func bindBlob(_ bytes: [UInt8], _ column: Int32) {
    bytes.withUnsafeBytes { buffer in
        _ = sqlite3_bind_blob(fixture.insert, column, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), transient)
    }
}
