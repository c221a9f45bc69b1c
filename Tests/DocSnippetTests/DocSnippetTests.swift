// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Issue 18 item 6: every example in a doc comment under `Sources/` is compiled, as
/// `DocSnippets` (written by `scripts/doc-snippets`); this test fails when one was edited or
/// added without regenerating it.
@Suite struct DocSnippetTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let sources = here.appendingPathComponent("../../Sources").standardizedFileURL

    /// The doc-comment examples of `Sources/`, as (file:line, lines without the `/// ` prefix).
    static func examples() throws -> [(place: String, lines: [String])] {
        var found: [(String, [String])] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index].trimmingCharacters(in: .whitespaces) == "/// ```swift" else { continue }
                var body: [String] = []
                let start = index + 1
                index += 1
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "/// ```" {
                    let text = lines[index].trimmingCharacters(in: .whitespaces)
                    body.append(String(text.dropFirst(text.hasPrefix("/// ") ? 4 : 3)))
                    index += 1
                }
                let place = "Sources/" + file.path.dropFirst(sources.path.count + 1) + ":\(start)"
                found.append((place, body))
            }
        }
        return found
    }

    @Test func everyDocCommentExampleIsCompiledAsWritten() throws {
        let generated = try String(contentsOf: Self.here.appendingPathComponent("DocSnippets.swift"), encoding: .utf8)
        let normalized = generated.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let examples = try Self.examples()
        #expect(examples.count >= 100)
        for example in examples {
            let code = example.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            #expect(normalized.contains("/// " + example.place) && normalized.contains(code),
                    "\(example.place) is not compiled as written: run scripts/doc-snippets")
        }
    }

    /// The ```` ```swift ```` blocks of the DocC articles, as (file:line, lines); an article's
    /// `import` lines are the generated file's own.
    static func articleBlocks() throws -> [(place: String, lines: [String])] {
        var found: [(String, [String])] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        for module in modules {
            let docc = sources.appendingPathComponent("\(module)/Documentation.docc")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: docc.path)) ?? [] where name.hasSuffix(".md") {
                let lines = try String(contentsOf: docc.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n")
                var index = 0
                while index < lines.count {
                    defer { index += 1 }
                    guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else { continue }
                    let start = index + 1
                    var body: [String] = []
                    index += 1
                    while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "```" {
                        if !lines[index].hasPrefix("import ") { body.append(lines[index]) }
                        index += 1
                    }
                    found.append(("Sources/\(module)/Documentation.docc/\(name):\(start)", body))
                }
            }
        }
        return found
    }

    @Test func everyArticleExampleIsCompiledAsWritten() throws {
        let generated = try String(contentsOf: Self.here.appendingPathComponent("DocSnippets.swift"), encoding: .utf8)
        let normalized = generated.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        let blocks = try Self.articleBlocks()
        #expect(blocks.count >= 20)
        for block in blocks {
            let code = block.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            #expect(normalized.contains(block.place) && normalized.contains(code),
                    "\(block.place) is not compiled as written: run scripts/doc-snippets")
        }
    }
}
