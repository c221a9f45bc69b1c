import AuthTesting
import Foundation
import Synchronization

/// Worker processes (`auth-store-worker serve`), each with its own pool, container and session on
/// one PostgreSQL store, driven over standard input; their output lines merged into one stream.
final class WorkerFleet: Sendable {
    let workers: [HelperProcess]
    /// Every worker's lines, as (worker index, line).
    let lines: AsyncStream<(Int, String)>
    private let killed = Mutex<Set<Int>>([])

    init(count: Int, store: String, server: URL, account: String, environment: [String: String] = [:]) throws {
        workers = try (0..<count).map { _ in
            try HelperProcess(named: "auth-store-worker", arguments: ["postgres", store, server.absoluteString, "fleet", account, "serve"], environment: environment)
        }
        let (lines, continuation) = AsyncStream<(Int, String)>.makeStream()
        self.lines = lines
        let readers = workers.enumerated().map { index, worker in
            Task {
                for await line in worker.lines { continuation.yield((index, line)) }
            }
        }
        Task {
            for reader in readers { await reader.value }
            continuation.finish()
        }
    }

    /// Waits until every worker printed `ready`; false when one ended first.
    func ready() async -> Bool {
        var ready = Set<Int>()
        for await (index, line) in lines {
            if line == "ready" { ready.insert(index) }
            if line.hasPrefix("error") { return false }
            if ready.count == workers.count { return true }
        }
        return false
    }

    /// Sends `go <count>` to every live worker and collects their results (`ok 50`, `fail …`),
    /// calling `onRenewing` with the index of a worker that announces a renewal.
    func burst(_ count: Int, onRenewing: (Int) -> Void = { _ in }) async -> [Int: String] {
        let live = Set(workers.indices).subtracting(killed.withLock { $0 })
        for index in live { workers[index].send("go \(count)") }
        var results: [Int: String] = [:]
        for await (index, line) in lines {
            if line.hasPrefix("renewing") { onRenewing(index) }
            if line.hasPrefix("ok") || line.hasPrefix("fail") || line.hasPrefix("error") { results[index] = line }
            let expected = Set(workers.indices).subtracting(killed.withLock { $0 })
            if expected.isSubset(of: results.keys) { break }
        }
        return results
    }

    /// Kills worker `index` with SIGKILL.
    func kill(_ index: Int) {
        killed.withLock { _ = $0.insert(index) }
        workers[index].killWithSIGKILL()
    }

    /// Ends every worker.
    func quit() async {
        for worker in workers { worker.send("quit") }
        for worker in workers { _ = await worker.waitForExit() }
    }
}
