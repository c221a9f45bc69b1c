// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Issue 18 item 6: the README's Swift blocks compile (as `ReadmeSnippets`, written by
/// `scripts/readme-snippets`) and the main example runs as written.
@Suite struct ReadmeSnippetTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md").standardizedFileURL
    static let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReadmeSnippets.swift")

    @Test func everySwiftBlockOfTheReadmeIsCompiledAsWritten() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let generated = try String(contentsOf: Self.generated, encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 2)
        for block in blocks {
            let code = block.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("import ") }
                .drop { $0.isEmpty }
                .map { $0.isEmpty ? "" : "        " + $0 }
                .joined(separator: "\n")
            #expect(generated.contains(code), "a README block is not in ReadmeSnippets.swift: run scripts/readme-snippets")
        }
    }

    @Test func theFirstExampleRunsAsWritten() async throws {
        try await ReadmeSnippets.block1()
    }
}
