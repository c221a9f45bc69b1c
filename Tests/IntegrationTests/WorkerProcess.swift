import AuthTesting
import Foundation

/// Runs `auth-store-worker`, the package's worker executable, as a separate OS process.
///
/// SwiftPM builds every executable of the package into the same products folder as the test
/// bundle (`.build/debug`), and the integration test target depends on the worker target, so it
/// is built first. It is looked for next to the loaded `.xctest` bundle, next to the running
/// executable, then in `.build/debug` above this source file.
enum WorkerProcess {
    static let name = "auth-store-worker"

    static func executableURL(file: String = #filePath) throws -> URL {
        try PackageExecutable.url(named: name, file: file)
    }

    /// Runs the worker to completion; returns its exit status and standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        let output = await withCheckedContinuation { (done: CheckedContinuation<Data, Never>) in
            DispatchQueue.global().async { done.resume(returning: pipe.fileHandleForReading.readDataToEndOfFile()) }
        }
        for await _ in exited {}
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
