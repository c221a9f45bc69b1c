import AuthTesting
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `migration-helper` executable, started as a separate OS process.
///
/// Where the helper is (the approach of AuthSQLiteStoreTests' `HelperProcess`): SwiftPM builds
/// every product of the package into one products folder (`.build/<triple>/debug`, also
/// reachable as `.build/debug`), the folder of the test bundle. So the helper is looked for, in
/// order: at `$AUTHKIT_MIGRATION_HELPER` when set; next to any loaded `.xctest` bundle; next to
/// the main bundle and the running executable; and in `.build/debug` and `.build/release` of the
/// package holding this source file. The test target depends on the helper target, so
/// `swift build --build-tests` and `swift test` build it first.
final class HelperProcess {
    static let name = "migration-helper"

    static func executableURL(file: String = #filePath) throws -> URL {
        try PackageExecutable.url(named: name, override: "AUTHKIT_MIGRATION_HELPER", file: file)
    }

    private let process: Process
    /// The lines the helper prints on standard output, as they come.
    let lines: AsyncStream<String>
    private let exit: AsyncStream<(reason: Process.TerminationReason, status: Int32)>

    /// Starts the helper with `arguments`.
    init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = try Self.executableURL()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let (exit, exitContinuation) = AsyncStream<(reason: Process.TerminationReason, status: Int32)>.makeStream()
        process.terminationHandler = { finished in
            exitContinuation.yield((finished.terminationReason, finished.terminationStatus))
            exitContinuation.finish()
        }
        let (lines, lineContinuation) = AsyncStream<String>.makeStream()
        let reader = output.fileHandleForReading
        try process.run()
        // A blocking read loop on a Dispatch thread, not on the cooperative pool. It drains the
        // pipe to the end, so the helper never blocks on a full pipe.
        DispatchQueue.global().async {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineContinuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
            lineContinuation.finish()
        }
        self.process = process
        self.lines = lines
        self.exit = exit
    }

    /// Reads lines until a `progress <done>/<total>` line with `done >= count`. Returns that
    /// `done`, or nil when the output ended first.
    func waitForProgress(atLeast count: Int) async -> Int? {
        for await line in lines {
            guard line.hasPrefix("progress "), let done = Int(line.dropFirst(9).prefix { $0 != "/" }) else { continue }
            if done >= count { return done }
        }
        return nil
    }

    /// Every remaining line of output (returns when the helper closed its output).
    func remainingLines() async -> [String] {
        var all: [String] = []
        for await line in lines { all.append(line) }
        return all
    }

    /// Kills the helper with SIGKILL: none of its own code runs after that.
    func killWithSIGKILL() {
        _ = kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the helper to end. - Returns: how it ended and its status or signal.
    func waitForExit() async -> (reason: Process.TerminationReason, status: Int32)? {
        for await result in exit { return result }
        return nil
    }
}
