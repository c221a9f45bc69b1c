// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The RFC 4226 / RFC 6238 vectors, read from the `## OTP` section of Tests/Vectors/README.md.
struct OTPVectors {
    struct TOTPRow {
        let time: Int64
        /// Algorithm column name (`SHA1`, `SHA256`, `SHA512`) → 8-digit code.
        let codes: [String: String]
    }

    let hotpSecret: [UInt8]
    let hotpCodes: [String]
    /// Algorithm name → seed bytes.
    let totpSeeds: [String: [UInt8]]
    let totpRows: [TOTPRow]
    let sha1SeedBase32: String

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

    /// Loads and parses the README's OTP section.
    static func load() throws -> OTPVectors {
        guard let directory = vectorsDirectory() else { throw ParseError(description: "Tests/Vectors not found") }
        let text = try String(contentsOf: directory.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = text.range(of: "## OTP") else { throw ParseError(description: "no OTP section") }
        let rest = text[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        let lines = section.split(separator: "\n").map(String.init)

        func backticked(_ line: String) -> [String] {
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }

        guard let hotpIndex = lines.firstIndex(where: { $0.hasPrefix("HOTP") }),
              let hotpSecretText = backticked(lines[hotpIndex]).first else {
            throw ParseError(description: "no HOTP line")
        }
        let hotpCodes = lines[hotpIndex + 1].split(whereSeparator: { !$0.isNumber }).map(String.init)

        // Seeds: "SHA1 `…`", "SHA256 `…`", "SHA512 `…` repeated to 64 bytes".
        guard let seedsIndex = lines.firstIndex(where: { $0.contains("Seeds:") }) else {
            throw ParseError(description: "no seeds line")
        }
        let seedText = lines[seedsIndex] + " " + lines[seedsIndex + 1]
        var seeds: [String: [UInt8]] = [:]
        for name in ["SHA1", "SHA256", "SHA512"] {
            guard let nameRange = seedText.range(of: "\(name) `") else { throw ParseError(description: "no seed for \(name)") }
            let after = seedText[nameRange.upperBound...]
            guard let close = after.firstIndex(of: "`") else { throw ParseError(description: "unterminated seed") }
            var bytes = Array(after[..<close].utf8)
            let tail = after[after.index(after: close)...]
            if tail.hasPrefix(" repeated to ") {
                let count = Int(tail.dropFirst(" repeated to ".count).prefix(while: \.isNumber)) ?? 0
                let unit = bytes
                bytes = (0..<count).map { unit[$0 % unit.count] }
            }
            seeds[name] = bytes
        }

        let tableLines = lines.filter { $0.hasPrefix("|") }
        guard let header = tableLines.first else { throw ParseError(description: "no table") }
        let columns = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        var rows: [TOTPRow] = []
        for line in tableLines.dropFirst() {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let time = Int64(cells[0]) else { continue }
            var codes: [String: String] = [:]
            for (index, cell) in cells.enumerated().dropFirst() { codes[columns[index]] = cell }
            rows.append(TOTPRow(time: time, codes: codes))
        }

        guard let base32Line = lines.first(where: { $0.hasPrefix("Base32 of the SHA1 seed") }),
              let base32 = backticked(base32Line).first else {
            throw ParseError(description: "no base32 line")
        }
        return OTPVectors(hotpSecret: Array(hotpSecretText.utf8), hotpCodes: hotpCodes, totpSeeds: seeds, totpRows: rows, sha1SeedBase32: base32)
    }
}
