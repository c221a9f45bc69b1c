// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
import Testing

/// Issue 18 item 7: `auth-demo` run as a user would, with bad input. Each case must end with a
/// message that says what was wrong and a non-zero exit status, never a trap.
@Suite struct AuthDemoInputTests {
    static func demo(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String) {
        try await WorkerProcess.run(PackageExecutable.url(named: "auth-demo"), arguments, input: input, errors: true)
    }

    @Test(arguments: [
        (["story", "--burst=-5"], "--burst must be between 1 and 10000"),
        (["serve", "--port", "99999"], "--port must be between 0 and 65535"),
        (["serve", "--access-lifetime", "0"], "--access-lifetime must be at least 1 second"),
        (["request", "--account", "alice", "--server", "not a url"], "--server must be an absolute URL"),
    ])
    func badOptionsAreRefusedWithAMessage(arguments: [String], message: String) async throws {
        let result = try await Self.demo(arguments)
        #expect(result.status != 0 && result.status < 128, "exit status \(result.status)")
        #expect(result.output.contains(message), "said: \(result.output)")
    }

    @Test func aWrongPasswordSaysSoAndAnErrorStatusFailsTheRequest() async throws {
        try await Harness.run { h in
            try await h.register("carol")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitDemo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let common = ["--server", h.base.absoluteString, "--store", folder.appendingPathComponent("credentials.sqlite").path]

            let wrong = try await Self.demo(["login", "--username", "carol"] + common, input: "not her password\n")
            #expect(wrong.status == 1)
            #expect(wrong.output.contains("refused the user name or password"), "said: \(wrong.output)")
            #expect(!wrong.output.contains("not her password"))
            #expect(!wrong.output.contains("reauthenticationRequired"))

            let empty = try await Self.demo(["login", "--username", "carol"] + common, input: "")
            #expect(empty.status != 0 && empty.output.contains("no password given"), "said: \(empty.output)")

            let right = try await Self.demo(["login", "--username", "carol"] + common, input: "correct horse battery staple\n")
            #expect(right.status == 0, "said: \(right.output)")
            #expect(!right.output.contains("correct horse"))

            let found = try await Self.demo(["request", "--account", "carol"] + common + ["/me"])
            #expect(found.status == 0 && found.output.hasPrefix("200"), "said: \(found.output)")
            let missing = try await Self.demo(["request", "--account", "carol"] + common + ["/no-such-path"])
            #expect(missing.status == 1 && missing.output.hasPrefix("404"), "said: \(missing.output)")

            // A body goes out with its content type: the echo route sends it back.
            let posted = try await Self.demo(["request", "--account", "carol", "--method", "POST", "--data", #"{"note":"hi"}"#] + common + ["/echo"])
            #expect(posted.output.contains(#"hi"#), "said: \(posted.output)")
        }
    }

    /// Issue 53: `--bogus` printed the story's usage; an empty store printed nothing; a refused
    /// connection printed its cause twice with unbalanced parentheses.
    @Test func anUnknownOptionAnEmptyStoreAndARefusedConnectionEachSayOneClearThing() async throws {
        let bogus = try await Self.demo(["--bogus"])
        #expect(bogus.status != 0 && bogus.status < 128)
        #expect(bogus.output.contains("Unknown option '--bogus'"), "said: \(bogus.output)")
        #expect(bogus.output.contains("auth-demo <subcommand>"), "said: \(bogus.output)")
        #expect(!bogus.output.contains("auth-demo story [--burst"), "said: \(bogus.output)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitDemo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("credentials.sqlite").path
        let empty = try await Self.demo(["accounts", "--store", store])
        #expect(empty.status == 0)
        #expect(empty.output.contains("no accounts under namespace auth-demo in \(store)"), "said: \(empty.output)")

        let refused = try await Self.demo(["login", "--username", "x", "--server", "http://127.0.0.1:1", "--store", store], input: "pw\n")
        #expect(refused.status == 1)
        let line = refused.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line == "auth-demo: POST http://127.0.0.1:1 failed: connection refused", "said: \(refused.output)")
    }

    /// Issue 53: Ctrl-C in the story left its temporary SQLite store behind. Now it removes
    /// it, says so, and exits 130.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedStoryRemovesItsStoreAndSaysSo(signal number: Int32) async throws {
        let process = Process()
        process.executableURL = try PackageExecutable.url(named: "auth-demo")
        process.arguments = ["story"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        // The folder is named on the second line; interrupt once it is there.
        let reader = output.fileHandleForReading
        let announced = await offPool {
            var text = ""
            // Until the whole line is in: its path may come in two reads.
            while !(text.components(separatedBy: "credential store: ").dropFirst().first?.contains("\n") ?? false),
                  case let chunk = reader.availableData, !chunk.isEmpty {
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let path = try #require(announced.split(separator: "\n").first { $0.hasPrefix("credential store: ") }).dropFirst("credential store: ".count)
        let folder = URL(fileURLWithPath: String(path)).deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: folder.path))
        // The folder holds tokens (the story's store, a legacy tool's token files): only its
        // owner may read it, wherever the temporary directory is. It was 0755 before the fix.
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700, "the story's folder has mode \(String(mode ?? 0, radix: 8))")
        kill(process.processIdentifier, number)
        let rest = await offPool { reader.readDataToEndOfFile() }
        for await _ in exited {}
        #expect(process.terminationStatus == 128 + number)
        #expect(String(decoding: rest, as: UTF8.self).contains("interrupted; removed the story's temporary store \(folder.path)"))
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// Ctrl-C at `login`'s password prompt ended the process with the terminal's echo still
    /// off, so the shell went on typing blind. Now the signal turns echo back on first, and the
    /// process still ends by it. Standard input is a pseudo-terminal here, as in a shell.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalAtThePasswordPromptLeavesTheTerminalEchoing(signal number: Int32) async throws {
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        try #require(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0)
        defer { close(master) }
        let name = try #require(ptsname(master).map { String(cString: $0) })
        let terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        defer { close(terminal) }
        let echoes = {
            var settings = termios()
            return tcgetattr(terminal, &settings) == 0 && settings.c_lflag & tcflag_t(ECHO) != 0
        }
        #expect(echoes())

        let process = Process()
        process.executableURL = try PackageExecutable.url(named: "auth-demo")
        process.arguments = ["login", "--username", "carol", "--server", "http://127.0.0.1:1"]
        process.standardInput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        let reader = output.fileHandleForReading
        let prompt = await offPool {
            var text = ""
            while !text.contains("password for carol: "), case let chunk = reader.availableData, !chunk.isEmpty {
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        #expect(prompt.contains("password for carol: "), "said: \(prompt)")
        // Echo goes off just after the prompt is written.
        for _ in 0..<200 where echoes() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!echoes(), "the prompt did not turn echo off")

        kill(process.processIdentifier, number)
        for await _ in exited {}
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == number)
        #expect(echoes(), "the terminal was left without echo")
    }
}

// Glibc's pseudo-terminal calls, which Swift's Glibc module does not import (stdlib.h declares
// them only under _XOPEN_SOURCE).
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?
