import AuthTesting
import Foundation
import Testing

/// Launches `sqlite-store-helper`, the package's helper executable, as a separate OS process.
///
/// Where the helper is: SwiftPM builds every product of the package into one products folder
/// (`.build/<triple>/debug`, also reachable as `.build/debug`), the same folder as the test bundle
/// (`AuthSQLiteStorePackageTests.xctest`; on Linux an executable, on macOS a bundle folder). So the
/// helper is looked for, in order: at `$AUTHKIT_SQLITE_HELPER` when set; next to any loaded
/// `.xctest` bundle; next to the main bundle and the running executable; and finally in
/// `.build/debug` and `.build/release` of the package that holds this source file. The test target
/// depends on the helper target, so `swift build --build-tests` and `swift test` build it first.
enum HelperProcess {
    static let name = "sqlite-store-helper"

    static func executableURL(file: String = #filePath) throws -> URL {
        try PackageExecutable.url(named: name, override: "AUTHKIT_SQLITE_HELPER", file: file)
    }

    /// A started helper with its standard output.
    final class Running {
        let process: Process
        let output: Pipe
        private let exited: AsyncStream<Void>

        init(arguments: [String]) throws {
            process = Process()
            output = Pipe()
            process.executableURL = try HelperProcess.executableURL()
            process.arguments = arguments
            process.standardOutput = output
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            exited = stream
            process.terminationHandler = { _ in continuation.finish() }
            try process.run()
        }

        /// Waits for the process to end; returns its exit status (or the signal that ended it).
        func waitForExit() async -> (status: Int32, reason: Process.TerminationReason) {
            for await _ in exited {}
            return (process.terminationStatus, process.terminationReason)
        }

        /// Reads standard output until a line equal to `line` (or end of file); true when seen.
        func waitForLine(_ line: String) async -> Bool {
            let handle = output.fileHandleForReading
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var text = ""
                    while true {
                        let chunk = handle.availableData
                        if chunk.isEmpty { return continuation.resume(returning: false) }
                        text += String(decoding: chunk, as: UTF8.self)
                        if text.split(separator: "\n").contains(Substring(line)) { return continuation.resume(returning: true) }
                    }
                }
            }
        }

        /// Everything left on standard output (call after the process ended).
        func remainingOutput() -> String {
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }
}
