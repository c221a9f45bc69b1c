// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Synchronization
@testable import AuthCookie

/// Locates `Tests/Vectors` by walking up from this file.
func vectorsDirectory(file: String = #filePath) -> URL? {
    var dir = URL(fileURLWithPath: file).deletingLastPathComponent()
    while dir.path != "/" {
        let candidate = dir.appendingPathComponent("Tests/Vectors")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}

/// Decodes a JSON vector file below `Tests/Vectors`; empty when it cannot be read.
func loadVectors<T: Decodable>(_ relativePath: String, as type: [T].Type) -> [T] {
    guard let directory = vectorsDirectory(),
          let data = try? Data(contentsOf: directory.appendingPathComponent(relativePath)),
          let decoded = try? JSONDecoder().decode(type, from: data)
    else { return [] }
    return decoded
}

/// A clock that stands still until a test moves it.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { current = Mutex(start) }
    var date: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    var now: @Sendable () -> Date { { [self] in date } }
}

/// A URL from a literal written in a test.
func url(_ string: String) -> URL {
    guard let url = URL(string: string) else { preconditionFailure("bad test URL \(string)") }
    return url
}

/// The `name=value` pairs of a `Cookie` header, in order.
func pairs(_ header: String?) -> [String] {
    header.map { $0.components(separatedBy: "; ") } ?? []
}
