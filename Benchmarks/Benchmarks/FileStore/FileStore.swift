// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// FileCredentialStore against SQLiteCredentialStore: get and put of one account's record, both
// stores holding the same 1,000 records. The file-store benchmarks carry the SQLite store as
// their paired baseline (same process, alternating); the SQLite-only benchmarks are for reference.
//
// Both stores are durable by default: the file store writes a temporary file, fsyncs it, renames
// it and fsyncs the directory; the SQLite store commits a WAL transaction with
// `synchronous = FULL`. Each benchmark runs in its own process.
import AuthCore
import AuthFileStore
import AuthSQLiteStore
import Benchmark
import BenchmarkSupport
import Foundation
import Synchronization

let accountCount = 1_000
let probe = BenchmarkSupport.key(accountCount / 2)

/// Both stores, each in its own subdirectory of one temporary directory, removed by the teardown.
struct Stores: Sendable {
    let directory: URL
    let file: FileCredentialStore
    let sqlite: SQLiteCredentialStore
}

let current = Mutex<Stores?>(nil)

func makeStores() async throws -> Stores {
    let directory = try BenchmarkSupport.makeTemporaryDirectory("authkit-store-bench")
    let file = try FileCredentialStore(directory: directory.appendingPathComponent("files", isDirectory: true))
    for index in 0..<accountCount {
        try await file.put(BenchmarkSupport.envelope(index), for: BenchmarkSupport.key(index))
    }
    let sqlite = try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("credentials.sqlite").path)
    var records: [CredentialKey: Envelope] = [:]
    for index in 0..<accountCount { records[BenchmarkSupport.key(index)] = BenchmarkSupport.envelope(index) }
    try await sqlite.putMany(records)
    for store in [file, sqlite] as [any CredentialStore] {
        guard try await store.get(probe) == BenchmarkSupport.envelope(accountCount / 2) else {
            throw BenchmarkSetupError("the probe record does not read back from \(type(of: store))")
        }
    }
    let stores = Stores(directory: directory, file: file, sqlite: sqlite)
    current.withLock { $0 = stores }
    return stores
}

func removeStores() async throws {
    guard let stores = current.withLock({ $0.take() }) else { return }
    try await stores.sqlite.close()
    BenchmarkSupport.removeDirectory(stores.directory)
}

let benchmarks: @Sendable () -> Void = {
    let getConfiguration = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 3, maxDuration: .seconds(3), maxIterations: 1_000)
    let putConfiguration = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 20, maxDuration: .seconds(3), maxIterations: 5_000)

    var getPaired = getConfiguration
    getPaired.metrics = Paired.metrics
    var putPaired = putConfiguration
    putPaired.metrics = Paired.metrics

    // The subject is the file store; the paired baseline is the SQLite store, in the same process.
    Benchmark("get, FileCredentialStore", configuration: getPaired) { benchmark, stores in
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await stores.sqlite.get(probe))
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                blackHole(try await stores.file.get(probe))
            }
        }
    } setup: {
        try await makeStores()
    } teardown: {
        try await removeStores()
    }

    Benchmark("put, FileCredentialStore", configuration: putPaired) { benchmark, stores in
        let envelope = BenchmarkSupport.envelope(7)
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                try await stores.sqlite.put(envelope, for: probe)
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                try await stores.file.put(envelope, for: probe)
            }
        }
    } setup: {
        try await makeStores()
    } teardown: {
        try await removeStores()
    }

    Benchmark("get, SQLiteCredentialStore", configuration: getConfiguration) { benchmark, stores in
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await stores.sqlite.get(probe))
            }
        }
    } setup: {
        try await makeStores()
    } teardown: {
        try await removeStores()
    }

    Benchmark("put, SQLiteCredentialStore", configuration: putConfiguration) { benchmark, stores in
        let envelope = BenchmarkSupport.envelope(7)
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                try await stores.sqlite.put(envelope, for: probe)
            }
        }
    } setup: {
        try await makeStores()
    } teardown: {
        try await removeStores()
    }
}
