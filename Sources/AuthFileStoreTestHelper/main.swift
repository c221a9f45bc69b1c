// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// A process that the multi-process tests of AuthFileStore start. Not part of the library.
//
//   AuthFileStoreTestHelper writer <directory> <first-sequence>
//       Writes records in a loop, one put after another, each payload carrying a sequence
//       number, the key and a checksum; after each put returns it prints
//       `ack <account-index> <item> <sequence>`. Meant to be killed with SIGKILL; it stops by
//       itself after 100,000 puts or 120 seconds.
//   AuthFileStoreTestHelper counter <directory> <increments>
//       Increments the counter record `<increments>` times, each time inside the account's
//       refresh lock (read, pause 1 ms, write back), then prints `done`.
//
// It runs with umask 0, so the tests also show that the store's file modes do not depend on it.
import AuthCore
import AuthFileStore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys the writer cycles through; the crash test reads the same list.
let writerNamespace = "crash"
let writerAccounts = ["alice", "Bob/../x", String(repeating: "ß", count: 80)]
let writerItems = ["credential", "profile"]
let counterKey = CredentialKey(namespace: "race", account: "shared", item: "counter")

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// FNV-1a, 64 bits: the payload's self-check, recomputed by the test.
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
}

func writerPayload(sequence: Int, key: CredentialKey) -> Data {
    let fill = String(repeating: String(sequence % 10), count: 16_384 + (sequence % 8) * 4096)
    let body = "seq=\(sequence);key=\(key.namespace)/\(key.account)/\(key.item);fill=\(fill)"
    return Data((body + ";sum=" + String(fnv1a(body), radix: 16)).utf8)
}

func runWriter(_ store: FileCredentialStore, firstSequence: Int) async throws {
    let started = ContinuousClock.now
    var sequence = firstSequence
    for _ in 0..<100_000 {
        for (index, account) in writerAccounts.enumerated() {
            for item in writerItems {
                let key = CredentialKey(namespace: writerNamespace, account: account, item: item)
                let envelope = Envelope(kind: "crash-test", payload: writerPayload(sequence: sequence, key: key), updatedAt: Date())
                try await store.put(envelope, for: key)
                say("ack \(index) \(item) \(sequence)")
                sequence += 1
            }
        }
        if ContinuousClock.now - started > .seconds(120) { return }
    }
}

func runCounter(_ store: FileCredentialStore, increments: Int) async throws {
    for _ in 0..<increments {
        try await store.withRefreshLock(for: counterKey.accountKey) {
            let stored = try await store.get(counterKey)
            let current = stored.flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) } ?? 0
            try await Task.sleep(for: .milliseconds(1))  // widen the window a lost update needs
            try await store.put(Envelope(kind: "counter", payload: Data(String(current + 1).utf8), updatedAt: Date()), for: counterKey)
        }
    }
    say("done")
}

umask(0)
let arguments = CommandLine.arguments
guard arguments.count == 4, let number = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: AuthFileStoreTestHelper writer|counter <directory> <number>\n".utf8))
    exit(64)
}
do {
    let store = try FileCredentialStore(directory: URL(fileURLWithPath: arguments[2]))
    switch arguments[1] {
    case "writer": try await runWriter(store, firstSequence: number)
    case "counter": try await runCounter(store, increments: number)
    default:
        FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("helper failed: \(error)\n".utf8))
    exit(1)
}
