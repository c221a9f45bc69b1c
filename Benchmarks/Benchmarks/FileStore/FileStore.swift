// FileCredentialStore against SQLiteCredentialStore: get and put of one account's record, each
// store in its own temporary directory holding the same 1,000 records.
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

/// The store under test and its directory, removed by the teardown.
struct Fixture: Sendable {
    let directory: URL
    let store: any CredentialStore
}

let current = Mutex<Fixture?>(nil)

enum Kind { case file, sqlite }

func makeFixture(_ kind: Kind) async throws -> Fixture {
    let directory = try BenchmarkSupport.makeTemporaryDirectory("authkit-store-bench")
    let store: any CredentialStore
    switch kind {
    case .file:
        store = try FileCredentialStore(directory: directory.appendingPathComponent("store", isDirectory: true))
        for index in 0..<accountCount {
            try await store.put(BenchmarkSupport.envelope(index), for: BenchmarkSupport.key(index))
        }
    case .sqlite:
        let sqlite = try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("credentials.sqlite").path)
        var records: [CredentialKey: Envelope] = [:]
        for index in 0..<accountCount { records[BenchmarkSupport.key(index)] = BenchmarkSupport.envelope(index) }
        try await sqlite.putMany(records)
        store = sqlite
    }
    guard try await store.get(probe) == BenchmarkSupport.envelope(accountCount / 2) else {
        throw BenchmarkSetupError("the probe record does not read back")
    }
    let fixture = Fixture(directory: directory, store: store)
    current.withLock { $0 = fixture }
    return fixture
}

func removeFixture() async throws {
    guard let fixture = current.withLock({ $0.take() }) else { return }
    if let sqlite = fixture.store as? SQLiteCredentialStore { try await sqlite.close() }
    BenchmarkSupport.removeDirectory(fixture.directory)
}

let benchmarks: @Sendable () -> Void = {
    let getConfiguration = Benchmark.Configuration(
        metrics: CPUTime.metrics,
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    let putConfiguration = Benchmark.Configuration(
        metrics: CPUTime.metrics,
        timeUnits: .microseconds,
        warmupIterations: 20,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 5_000
    )

    for (name, kind) in [("FileCredentialStore", Kind.file), ("SQLiteCredentialStore", Kind.sqlite)] {
        Benchmark("get, \(name)", configuration: getConfiguration) { benchmark, fixture in
            let store = fixture.store
            try await CPUTime.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    blackHole(try await store.get(probe))
                }
            }
        } setup: {
            try await makeFixture(kind)
        } teardown: {
            try await removeFixture()
        }

        Benchmark("put, \(name)", configuration: putConfiguration) { benchmark, fixture in
            let store = fixture.store
            let envelope = BenchmarkSupport.envelope(7)
            try await CPUTime.measure(benchmark) {
                for _ in benchmark.scaledIterations {
                    try await store.put(envelope, for: probe)
                }
            }
        } setup: {
            try await makeFixture(kind)
        } teardown: {
            try await removeFixture()
        }
    }
}
