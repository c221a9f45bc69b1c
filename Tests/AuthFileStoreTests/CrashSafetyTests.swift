// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct CrashSafetyTests {
    // The keys and payload format of the helper's `writer` mode (Sources/AuthFileStoreTestHelper).
    static let accounts = ["alice", "Bob/../x", String(repeating: "ß", count: 80)]
    static let items = ["credential", "profile"]

    /// Parses a writer payload and checks its self-checksum. - Returns: its sequence number.
    static func verifiedSequence(_ payload: Data, for key: CredentialKey) -> Int? {
        let text = String(decoding: payload, as: UTF8.self)
        guard let range = text.range(of: ";sum=", options: .backwards) else { return nil }
        let body = String(text[..<range.lowerBound])
        let sum = body.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        guard String(text[range.upperBound...]) == String(sum, radix: 16),
              body.contains(";key=\(key.namespace)/\(key.account)/\(key.item);fill="),
              body.hasPrefix("seq="),
              let sequence = Int(body.dropFirst(4).prefix { $0 != ";" })
        else { return nil }
        return sequence
    }

    @Test func writerKilledTwentyTimesLeavesOnlyWrittenValues() async throws {
        let helper = try #require(try? PackageExecutable.url(named: "AuthFileStoreTestHelper", override: "AUTHFILESTORE_TEST_HELPER"), "build the AuthFileStoreTestHelper product first")
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("store")
            var acknowledged: [CredentialKey: Int] = [:]
            for run in 0..<20 {
                let writer = try HelperProcess(helper, arguments: ["writer", directory.path, "\(run * 1_000_000)"])
                let stopAfter = Int.random(in: 1...60)
                var seen = 0
                for await line in writer.lines {
                    let parts = line.split(separator: " ")
                    guard parts.count == 4, parts[0] == "ack", let index = Int(parts[1]), let sequence = Int(parts[3]) else { continue }
                    acknowledged[CredentialKey(namespace: "crash", account: Self.accounts[index], item: String(parts[2]))] = sequence
                    seen += 1
                    if seen >= stopAfter { break }
                }
                // Spread the kills over the phases of the next put (encode, write, fsync, rename).
                try await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
                writer.killWithSIGKILL()
                let ending = await writer.waitForExit()
                #expect(ending?.reason == .uncaughtSignal && ending?.status == SIGKILL, "run \(run): the writer was not killed mid-loop: \(String(describing: ending))")
                try await Self.expectOnlyWrittenValues(in: directory, acknowledged: acknowledged, run: run)
            }
        }
    }

    /// Reopens the store after a crash and checks every record and file in it.
    static func expectOnlyWrittenValues(in directory: URL, acknowledged: [CredentialKey: Int], run: Int) async throws {
        let store = try FileCredentialStore(directory: directory)
        let paths = try TestFiles.allPaths(under: store.directory)
        #expect(paths.allSatisfy { !($0 as NSString).lastPathComponent.hasPrefix(".tmp-") }, "run \(run): temporary files survived reopening")
        #expect(paths.allSatisfy { !$0.contains(".corrupt-") }, "run \(run): a record was damaged")
        for (key, sequence) in acknowledged {
            let stored = try #require(try await store.get(key), "run \(run): \(key) is missing")
            let storedSequence = try #require(Self.verifiedSequence(stored.payload, for: key), "run \(run): \(key) holds a value that was never written")
            #expect(storedSequence >= sequence, "run \(run): \(key) lost an acknowledged write")
        }
        // The helper runs with umask 0; modes are still 0700 and 0600.
        for relative in paths {
            let path = store.directory.path + "/" + relative
            #expect(TestFiles.mode(path) == (TestFiles.isDirectory(path) ? 0o700 : 0o600), "\(relative) has mode \(String(TestFiles.mode(path) ?? 0, radix: 8))")
        }
    }

    @Test func leftoverTemporaryFilesAreRemovedOnOpen() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let key = CredentialKey(namespace: "n", account: "a", item: "credential")
            let first = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            try await first.put(TestFiles.envelope("kept"), for: key)
            let accountFolder = try #require(try TestFiles.allPaths(under: first.directory).first { $0.hasSuffix(".rec") })
                .split(separator: "/").dropLast().joined(separator: "/")
            let leftover = first.directory.path + "/" + accountFolder + "/.tmp-0123456789abcdef"
            #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half a rec".utf8)))

            let reopened = try FileCredentialStore(directory: first.directory)
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(try await reopened.get(key)?.payload == Data("kept".utf8))
        }
    }
}
