// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What every fuzz target shares: the libFuzzer entry point, the input as bytes, text or fields, a
/// contract check that traps
/// (so libFuzzer records the input) when a parser breaks its documented promise, a synchronous
/// bridge to async APIs (libFuzzer calls `LLVMFuzzerTestOneInput` on a plain thread), and an
/// opt-in trace (`FUZZ_TRACE=1`) for checking what the seeds reach.
public import Foundation
import CLibFuzzer
import Dispatch

/// Runs libFuzzer's driver with the process arguments (corpus dirs, files, `-flags`) and
/// `testOneInput`, then exits with its status. Each target's `@main` calls this.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}

/// One fuzz input.
public struct FuzzInput: Sendable {
    /// The raw bytes.
    public let bytes: [UInt8]

    /// Copies the bytes libFuzzer passed (`data` may be null when `size` is 0).
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The bytes as text; invalid UTF-8 becomes U+FFFD, as a header value decoded leniently would.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The input split at `\n` into at most `count` fields (the last keeps any further newlines);
    /// missing fields are empty.
    public func fields(_ count: Int) -> [[UInt8]] {
        var result = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: count - 1, omittingEmptySubsequences: false).map(Array.init)
        while result.count < count { result.append([]) }
        return result
    }
}

/// Traps with `message` when `condition` is false: a broken contract is a finding like a crash.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("fuzz contract broken: \(message())", file: file, line: line)
    }
}

/// Whether `FUZZ_TRACE` is set: targets then print what each input reached.
public let tracing = ProcessInfo.processInfo.environment["FUZZ_TRACE"] != nil

/// Prints `message` to standard error when ``tracing`` is on.
public func trace(_ message: @autoclosure () -> String) {
    if tracing { FileHandle.standardError.write(Data(("trace: " + message() + "\n").utf8)) }
}

/// Runs `body` on a detached task and blocks this thread until it finishes.
///
/// The calling thread is libFuzzer's, not one of the concurrency pool's, so blocking it cannot
/// starve the task it waits for.
@discardableResult
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return box.result!
}

/// Written once by the task and read after the semaphore: the semaphore orders the two.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// A fixed instant (2024-05-01T12:00:00Z) that targets use as "now", so runs are reproducible.
public let fixedNow = Date(timeIntervalSince1970: 1_714_564_800)

/// A scratch directory for one fuzz process, under `FUZZ_TMPDIR`, else `/dev/shm` (no disk
/// writes), else the system temporary directory. Removed when the process exits normally.
public func scratchDirectory(_ name: String) -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base: String
    if let custom = environment["FUZZ_TMPDIR"] {
        base = custom
    } else if FileManager.default.isWritableFile(atPath: "/dev/shm") {
        base = "/dev/shm"
    } else {
        base = NSTemporaryDirectory()
    }
    let url = URL(fileURLWithPath: base, isDirectory: true)
        .appendingPathComponent("authkit-fuzz-\(name)-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.removeItem(at: url)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    if scratchPaths.isEmpty {
        atexit { for path in scratchPaths { try? FileManager.default.removeItem(atPath: path) } }
    }
    scratchPaths.append(url.path)
    return url
}

/// The scratch directories to remove at exit; only touched from libFuzzer's thread.
nonisolated(unsafe) private var scratchPaths: [String] = []
