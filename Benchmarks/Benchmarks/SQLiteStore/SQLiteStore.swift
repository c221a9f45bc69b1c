// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// SQLiteCredentialStore against the raw sqlite3 C API, on one database of 100,000 accounts.
//
// Each benchmark runs in its own process (package-benchmark spawns one per benchmark), so each
// one builds the database in its setup: a temporary directory, `SQLiteCredentialStore.open`, one
// `putMany` of 100,000 records. The raw baseline opens a second connection to that same file and
// runs the store's own SQL with prepared statements; the store benchmarks also run that baseline
// in the same iteration (paired metrics). The "diagnostic" benchmarks run the same statements
// through GRDB's own paths: they show why `get` reads on a connection of its own (the pool's
// queue hop and read transaction cost ~100 µs) and what `put` pays for GRDB's writer queue.
//
// Targets: store get rate ≥ 0.7 × raw get rate; the put ratio is reported.
import AuthCore
import AuthSQLiteStore
import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import Synchronization

let accountCount = 100_000
/// The account every get and put touches: one in the middle of the key range.
let probe = BenchmarkSupport.key(accountCount / 2)

struct Fixture: Sendable {
    let directory: URL
    let path: String
    let store: SQLiteCredentialStore
}

/// The fixture of this process, closed and deleted by the teardown.
let current = Mutex<Fixture?>(nil)

func makeFixture() async throws -> Fixture {
    let directory = try BenchmarkSupport.makeTemporaryDirectory("authkit-sqlite-bench")
    let path = directory.appendingPathComponent("credentials.sqlite").path
    let store = try await SQLiteCredentialStore.open(at: path)
    var records: [CredentialKey: Envelope] = [:]
    records.reserveCapacity(accountCount)
    for index in 0..<accountCount { records[BenchmarkSupport.key(index)] = BenchmarkSupport.envelope(index) }
    try await store.putMany(records)
    guard try await store.get(probe) != nil else { throw BenchmarkSetupError("the probe record was not written") }
    let fixture = Fixture(directory: directory, path: path, store: store)
    current.withLock { $0 = fixture }
    return fixture
}

/// The fixture plus a raw connection to its file, for the paired baseline.
func makePair() async throws -> (Fixture, RawSQLite) {
    let fixture = try await makeFixture()
    let raw = try RawSQLite(path: fixture.path)
    guard try await raw.get(probe) == fixture.store.get(probe) else {
        throw BenchmarkSetupError("the raw read does not decode the record the store reads")
    }
    return (fixture, raw)
}

func removeFixture() async throws {
    guard let fixture = current.withLock({ $0.take() }) else { return }
    try await fixture.store.close()
    BenchmarkSupport.removeDirectory(fixture.directory)
}

let benchmarks: @Sendable () -> Void = {
    let getConfiguration = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 3, maxDuration: .seconds(3), maxIterations: 1_000)
    let putConfiguration = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 20, maxDuration: .seconds(3), maxIterations: 5_000)

    var getPaired = getConfiguration
    getPaired.metrics = Paired.metrics
    var putPaired = putConfiguration
    putPaired.metrics = Paired.metrics

    Benchmark("get, SQLiteCredentialStore", configuration: getPaired) { (benchmark: Benchmark, pair: (Fixture, RawSQLite)) in
        let (fixture, raw) = pair
        let store = fixture.store
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try raw.get(probe))
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                blackHole(try await store.get(probe))
            }
        }
    } setup: {
        try await makePair()
    } teardown: {
        try await removeFixture()
    }

    Benchmark("get, raw sqlite3 (baseline)", configuration: getConfiguration) { (benchmark: Benchmark, raw: RawSQLite) in
        try CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try raw.get(probe))
            }
        }
    } setup: {
        let fixture = try await makeFixture()
        let raw = try RawSQLite(path: fixture.path)
        guard try await raw.get(probe) == fixture.store.get(probe) else {
            throw BenchmarkSetupError("the raw read does not decode the record the store reads")
        }
        return raw
    } teardown: {
        try await removeFixture()
    }

    Benchmark("put, SQLiteCredentialStore", configuration: putPaired) { (benchmark: Benchmark, pair: (Fixture, RawSQLite)) in
        let (fixture, raw) = pair
        let envelope = BenchmarkSupport.envelope(7)
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                try raw.put(envelope, for: probe)
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                try await fixture.store.put(envelope, for: probe)
            }
        }
    } setup: {
        try await makePair()
    } teardown: {
        try await removeFixture()
    }

    Benchmark("put, raw sqlite3 (baseline)", configuration: putConfiguration) { (benchmark: Benchmark, raw: RawSQLite) in
        let envelope = BenchmarkSupport.envelope(7)
        try CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                try raw.put(envelope, for: probe)
            }
        }
    } setup: {
        let fixture = try await makeFixture()
        let raw = try RawSQLite(path: fixture.path)
        try raw.put(BenchmarkSupport.envelope(7), for: probe)
        guard try await fixture.store.get(probe) == BenchmarkSupport.envelope(7) else {
            throw BenchmarkSetupError("the store does not read back what the raw write stored")
        }
        return raw
    } teardown: {
        try await removeFixture()
    }

    // Diagnostics: the same reads and writes through GRDB directly, to split the store's cost
    // into statement preparation (the store's `get` prepares its SELECT on every call) and the
    // async hop to GRDB's reader/writer queue.
    Benchmark("get, GRDB async read + cached statement (diagnostic)", configuration: getConfiguration) { benchmark, pool in
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await pool.read { db in try GRDBDirect.get(db, probe) })
            }
        }
    } setup: {
        try GRDBDirect.openPool(path: try await makeFixture().path)
    } teardown: {
        try await removeFixture()
    }

    Benchmark("get, GRDB async unsafeRead + cached statement (diagnostic)", configuration: getConfiguration) { benchmark, pool in
        // No BEGIN/COMMIT around the SELECT: one statement in autocommit mode reads one snapshot.
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await pool.unsafeRead { db in try GRDBDirect.get(db, probe) })
            }
        }
    } setup: {
        try GRDBDirect.openPool(path: try await makeFixture().path)
    } teardown: {
        try await removeFixture()
    }

    Benchmark("get, GRDB sync read + cached statement (diagnostic)", configuration: getConfiguration) { benchmark, pool in
        try CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try pool.read { db in try GRDBDirect.get(db, probe) })
            }
        }
    } setup: {
        try GRDBDirect.openPool(path: try await makeFixture().path)
    } teardown: {
        try await removeFixture()
    }

    Benchmark("put, GRDB sync write + cached statement (diagnostic)", configuration: putConfiguration) { benchmark, pool in
        let envelope = BenchmarkSupport.envelope(7)
        try CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                try pool.write { db in try GRDBDirect.put(db, envelope, probe) }
            }
        }
    } setup: {
        try GRDBDirect.openPool(path: try await makeFixture().path)
    } teardown: {
        try await removeFixture()
    }
}
