import AuthTesting
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `AuthFileStoreTestHelper` executable, started as a separate process.
///
/// Finding it: SwiftPM builds every product of the package into one folder (`.build/<triple>/debug`),
/// which also holds the test bundle. On Linux the test bundle is an executable there
/// (`AuthFileStorePackageTests.xctest`); on macOS it is a bundle folder there, and the process
/// running the tests may live inside it or in the toolchain. So the helper is searched for in the
/// folder of the running executable and of every loaded bundle, and in up to three of their
/// parent folders. `AUTHFILESTORE_TEST_HELPER` overrides the search with an explicit path.
final class HelperProcess {
    /// The executable's file name.
    static let name = "AuthFileStoreTestHelper"

    /// The helper's location, or nil when it was not built.
    static func executableURL() -> URL? {
        try? PackageExecutable.url(named: name, override: "AUTHFILESTORE_TEST_HELPER")
    }

    private let process: Process
    /// The lines the helper prints, as they come.
    let lines: AsyncStream<String>
    private let exit: AsyncStream<(reason: Process.TerminationReason, status: Int32)>

    /// Starts the helper with `arguments`.
    init(_ executable: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
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
        // A blocking read loop on a Dispatch thread, not on the cooperative pool.
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

    /// Kills the helper with SIGKILL: no clean-up code of its own runs.
    func killWithSIGKILL() {
        _ = kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the helper to end. - Returns: how it ended and its status or signal.
    func waitForExit() async -> (reason: Process.TerminationReason, status: Int32)? {
        for await result in exit { return result }
        return nil
    }
}
