// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Shared helpers: locating the published vectors and parsing raw HTTP request files.
enum TestSupport {
    static func vectorsDirectory(file: String = #filePath) -> URL? {
        var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("Tests/Vectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses a raw HTTP/1.1 request (LF or CRLF line ends): request line, header lines (a line
    /// starting with space or tab continues the previous field, joined by one space, as obs-fold),
    /// a blank line, then the body. `Host` becomes the authority; repeated fields stay repeated;
    /// the request target is kept exactly as written (even with a space in it).
    static func parseRawRequest(_ text: String, scheme: String = "https") throws -> AuthRequest {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst(),
              let firstSpace = requestLine.firstIndex(of: " "),
              let lastSpace = requestLine.lastIndex(of: " "), firstSpace < lastSpace,
              let method = HTTPRequest.Method(String(requestLine[..<firstSpace])) else {
            throw ParseError(description: "bad request line")
        }
        let target = String(requestLine[requestLine.index(after: firstSpace)..<lastSpace])
        var headers: [(name: String, value: String)] = []
        while let line = lines.popFirst() {
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { throw ParseError(description: "bad header line") }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        let body = lines.joined(separator: "\n")
        var fields = HTTPFields()
        var authority: String?
        for header in headers {
            if header.name.lowercased() == "host" {
                authority = header.value
                continue
            }
            guard let name = HTTPField.Name(header.name) else { throw ParseError(description: "bad header name") }
            fields.append(HTTPField(name: name, value: header.value))
        }
        let head = HTTPRequest(method: method, scheme: scheme, authority: authority, path: target, headerFields: fields)
        return AuthRequest(head: head, body: Data(body.utf8))
    }
}

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var closure: @Sendable () -> Date { { self.now } }
}

extension HTTPField.Name {
    static func named(_ name: String) throws -> HTTPField.Name {
        try #require(HTTPField.Name(name))
    }
}

/// Runs `body`, expecting it to throw an `E`; records an issue otherwise.
func caught<E: Error>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> E? {
    do {
        try await body()
        Issue.record("expected \(E.self) but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected \(E.self) but got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
