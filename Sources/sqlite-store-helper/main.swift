// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// sqlite-store-helper: a second OS process for AuthSQLiteStore's multi-process tests.
//
//   sqlite-store-helper increment <database> <account> <times> <hold-ms>
//       <times> times: take the refresh lock of multi/<account>, read the decimal counter in item
//       "counter", wait <hold-ms> milliseconds, write counter + 1. Prints "done <times>".
//   sqlite-store-helper write-loop <database>
//       Writes self-checking records (SequencePayload) forever, alternating a single put and a
//       4-record batch; prints "ready" after the first batch commit. The test kills it with SIGKILL.
//
// Exit status 0 on success, 1 on a store error (its description on stderr), 2 on bad usage.
import AuthCore
import AuthSQLiteStore
import Foundation

func say(_ line: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((line + "\n").utf8))  // unbuffered: the test reads it through a pipe
}

func increment(database: String, account: String, times: Int, holdMilliseconds: Int) async throws {
    // A long busy timeout: with it, concurrent first opens were refused at once (issue found
    // under CI load); the store now retries them until the timeout.
    let store = try await SQLiteCredentialStore.open(at: database, options: SQLiteStoreOptions(busyTimeout: .seconds(30)))
    let owner = AccountKey(namespace: "multi", account: account)
    let key = owner.item("counter")
    for _ in 0..<times {
        try await store.withRefreshLock(for: owner) {
            let current = try await store.get(key).flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) } ?? 0
            if holdMilliseconds > 0 { try await Task.sleep(for: .milliseconds(holdMilliseconds)) }
            let next = Envelope(kind: "counter", payload: Data(String(current + 1).utf8), updatedAt: Date())
            try await store.put(next, for: key)
        }
    }
    say("done \(times)")
}

func writeLoop(database: String) async throws -> Never {
    let store = try await SQLiteCredentialStore.open(at: database)
    let account = AccountKey(namespace: "crash", account: "writer")
    var seq = UInt64.random(in: 0..<(1 << 40))
    var announced = false
    while true {
        seq += 1
        if seq % 2 == 0 {
            let envelope = Envelope(kind: "sequence", payload: SequencePayload.encode(seq), updatedAt: Date())
            try await store.put(envelope, for: account.item("single-\(seq % 8)"))
        } else {
            var batch: [CredentialKey: Envelope] = [:]
            for index in 0..<4 {
                batch[account.item("batch-\(index)")] = Envelope(kind: "sequence", payload: SequencePayload.encode(seq), updatedAt: Date())
            }
            try await store.putMany(batch)
        }
        if !announced, seq % 2 == 1 {  // after the first batch, so every round finds one
            say("ready")
            announced = true
        }
    }
}

let arguments = CommandLine.arguments
do {
    switch arguments.dropFirst().first {
    case "increment" where arguments.count == 6:
        guard let times = Int(arguments[4]), let hold = Int(arguments[5]) else { exit(2) }
        try await increment(database: arguments[2], account: arguments[3], times: times, holdMilliseconds: hold)
    case "write-loop" where arguments.count == 3:
        try await writeLoop(database: arguments[2])
    default:
        say("usage: sqlite-store-helper increment <database> <account> <times> <hold-ms> | write-loop <database>", to: .standardError)
        exit(2)
    }
} catch {
    say("sqlite-store-helper: \(error)", to: .standardError)
    exit(1)
}
