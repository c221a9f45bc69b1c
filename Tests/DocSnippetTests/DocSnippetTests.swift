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
}
