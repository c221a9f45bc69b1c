// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The invariant "no secret appears in the `description`, `debugDescription` or `dump` of any
/// public type", checked on one list of every public type of every module that holds a secret.
///
/// Each value is built with secrets that contain ``SecretExhibit/marker``; the test prints it
/// every way a user or a log could (`String(describing:)`, `String(reflecting:)`, `dump`) and walks
/// its `Mirror` down through every child, and fails for each rendering that shows a secret.
@Suite struct NoSecretInDescriptionsTests {
    @Test func noPublicTypeShowsASecret() async throws {
        let exhibits = try await SecretExhibit.all()
        #expect(exhibits.count > 60)
        for exhibit in exhibits {
            let leaks = SecretScan.leaks(in: exhibit)
            guard !leaks.isEmpty else { continue }
            Issue.record(Comment(rawValue: "\(exhibit.name) shows a secret:\n" + leaks.joined(separator: "\n")))
        }
    }

    /// The scan itself finds a secret at each place it looks, so a pass means something.
    @Test func theScanFindsSecretsWhereverTheyAre() {
        struct Plain { var token = SecretExhibit.marker }
        struct Nested { var inner = [["k": Plain()]] }
        struct Bytes { var key = Data("key-\(SecretExhibit.marker)".utf8) }
        class Base { let hidden = SecretExhibit.marker }
        final class Derived: Base {}
        for value in [Plain(), Nested(), Bytes(), Derived()] as [Any] {
            #expect(!SecretScan.leaks(in: SecretExhibit(value, [SecretExhibit.marker])).isEmpty, "\(type(of: value))")
        }
        #expect(SecretScan.leaks(in: SecretExhibit("nothing", [SecretExhibit.marker])).isEmpty)
    }
}

/// One value to print, and what none of its renderings may show.
struct SecretExhibit {
    /// The text every secret in the exhibits contains.
    static let marker = "SeKrEt7"

    /// What the value is, for failure messages.
    var name: String
    /// The value.
    var value: Any
    /// Strings no rendering may contain.
    var secrets: [String]
    /// Byte strings (keys) no byte buffer reachable through the mirror may contain.
    var rawSecrets: [[UInt8]]

    init(_ value: Any, _ secrets: [String], raw: [[UInt8]] = [], name: String? = nil) {
        self.value = value
        self.secrets = secrets
        self.rawSecrets = raw
        self.name = name ?? String(describing: type(of: value))
    }

    /// Every exhibit of every module.
    static func all() async throws -> [SecretExhibit] {
        var all = try await core()
        all += try await stores()
        all += try await cookies()
        all += try await mfa()
        all += try await signing()
        all += try await cacheAndMigration()
        all += try await oauth2()
        all += testServer()
        return all
    }
}

/// Prints a value every way it can be printed and looks for secrets.
enum SecretScan {
    static let maxDepth = 14
    static let maxNodes = 20_000

    /// Where `exhibit`'s value shows one of its secrets; empty when it shows none.
    static func leaks(in exhibit: SecretExhibit) -> [String] {
        var found: [String] = []
        @discardableResult
        func check(_ text: String, _ place: String) -> Bool {
            guard let secret = exhibit.secrets.first(where: { text.contains($0) }) else { return false }
            found.append("\(place) shows \"\(secret)\": \(excerpt(of: text, around: secret))")
            return true
        }
        let value = exhibit.value
        check(String(describing: value), "description")
        check(String(reflecting: value), "debugDescription")
        var dumped = ""
        dump(value, to: &dumped)
        check(dumped, "dump")

        let byteSecrets = exhibit.secrets.map { Array($0.utf8) } + exhibit.rawSecrets
        var nodes = 0
        func walk(_ value: Any, path: String, depth: Int) {
            nodes += 1
            guard depth <= maxDepth, nodes <= maxNodes else { return }
            if let bytes = bytes(of: value) {
                if byteSecrets.contains(where: { contains(bytes, $0) }) { found.append("mirror \(path) holds secret bytes") }
                return
            }
            var mirror: Mirror? = Mirror(reflecting: value)
            while let current = mirror {
                for (index, child) in current.children.enumerated() {
                    let label = child.label ?? "[\(index)]"
                    // A leaking child is reported once, not again for each of its descendants.
                    guard !check(label, "mirror label \(path).\(label)"),
                          !check(String(describing: child.value), "mirror \(path).\(label)") else { continue }
                    walk(child.value, path: "\(path).\(label)", depth: depth + 1)
                }
                mirror = current.superclassMirror
            }
        }
        walk(value, path: "", depth: 0)
        return found
    }

    /// The bytes of a byte buffer (`Data`, `[UInt8]`, a key), or nil for anything else.
    static func bytes(of value: Any) -> [UInt8]? {
        if value is String || value is Substring { return nil }
        if let bytes = value as? [UInt8] { return bytes }
        if let bytes = value as? ArraySlice<UInt8> { return Array(bytes) }
        if let buffer = value as? any ContiguousBytes { return buffer.withUnsafeBytes { Array($0) } }
        return nil
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func excerpt(of text: String, around secret: String) -> String {
        guard let range = text.range(of: secret) else { return "" }
        let start = text.index(range.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(range.upperBound, offsetBy: 20, limitedBy: text.endIndex) ?? text.endIndex
        return "…\(text[start..<end])…"
    }
}
