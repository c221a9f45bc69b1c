// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A public suffix list compiled for lookups: one hash table keyed by domain suffix.
///
/// Each rule is stored under its domain in ASCII (international labels in Punycode), lower
/// case: `com` → normal, `*.ck` → wildcard on `ck`, `!www.ck` → exception on `www.ck`. Every
/// parent of a rule's domain is stored too, with no rule, so that the table is a trie of
/// reversed labels flattened into one dictionary: a lookup walks from the top-level domain
/// down and stops at the first suffix the table does not know, since no longer rule can match.
final class PublicSuffixRules: Sendable {
    /// The rules on one domain.
    struct Flags: OptionSet, Hashable, Sendable {
        let rawValue: UInt8
        /// A normal rule: the domain itself is a public suffix.
        static let normal = Flags(rawValue: 1)
        /// A wildcard rule `*.domain`: every child of the domain is a public suffix.
        static let wildcard = Flags(rawValue: 2)
        /// An exception rule `!domain`: the domain is registrable, its parent the suffix.
        static let exception = Flags(rawValue: 4)
    }

    /// The sections a list text declared with its `===BEGIN … DOMAINS===` lines.
    struct Sections: OptionSet, Sendable {
        let rawValue: UInt8
        static let icann = Sections(rawValue: 1)
        static let privateDomains = Sections(rawValue: 2)
    }

    /// Every rule's domain and every parent of one, with the rules on it.
    let entries: [Substring: Flags]
    /// The rules compiled (the implicit `*` is not counted unless the text says it).
    let ruleCount: Int
    /// The sections the text declared.
    let sections: Sections

    private init(entries: [Substring: Flags], ruleCount: Int, sections: Sections) {
        self.entries = entries
        self.ruleCount = ruleCount
        self.sections = sections
    }

    /// The number of labels of the public suffix of `domain`, which must be ASCII, lower case,
    /// without a trailing dot and without empty labels. At least 1: the implicit rule `*`.
    func publicSuffixLabelCount(ofASCII domain: Substring) -> Int {
        let bytes = domain.utf8
        var matched = 1, exception: Int?
        var parentIsWildcard = false
        var labels = 0
        var labelEnd = bytes.endIndex
        while true {
            let dot = bytes[..<labelEnd].lastIndex(of: UInt8(ascii: "."))
            let labelStart = dot.map { bytes.index(after: $0) } ?? bytes.startIndex
            labels += 1
            if parentIsWildcard { matched = labels }
            guard let flags = entries[domain[labelStart...]] else { break }
            if flags.contains(.normal) { matched = labels }
            if flags.contains(.exception) { exception = labels }
            parentIsWildcard = flags.contains(.wildcard)
            guard let dot else { break }
            labelEnd = dot
        }
        // An exception rule prevails over every other match; its leftmost label is registrable.
        return exception.map { $0 - 1 } ?? matched
    }
}

extension PublicSuffixRules {
    private static let beginICANN = Array("// ===BEGIN ICANN DOMAINS===".utf8)
    private static let beginPrivate = Array("// ===BEGIN PRIVATE DOMAINS===".utf8)
    private static let endPrivate = Array("// ===END PRIVATE DOMAINS===".utf8)

    /// Compiles the text of a list in the format of `public_suffix_list.dat`: one rule per line,
    /// each line read up to its first whitespace, `//` comments.
    /// - Throws: ``CookieError`` `.publicSuffixListInvalidRule` for a line that is not a rule.
    static func compile(text: String, includingPrivateDomains: Bool) throws(CookieError) -> PublicSuffixRules {
        var builder = Builder()
        builder.entries.reserveCapacity(text.utf8.count / 24)
        var inPrivateSection = false
        var sections: Sections = []
        var lineNumber = 0
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.prefix { !isWhitespace($0) }
            if line.isEmpty { continue }
            if line.starts(with: "//".utf8) {
                var end = rawLine.endIndex
                while end > rawLine.startIndex, isWhitespace(rawLine[rawLine.index(before: end)]) {
                    end = rawLine.index(before: end)
                }
                let comment = rawLine[..<end]
                if comment.elementsEqual(beginICANN) {
                    sections.insert(.icann)
                } else if comment.elementsEqual(beginPrivate) {
                    sections.insert(.privateDomains)
                    inPrivateSection = true
                } else if comment.elementsEqual(endPrivate) {
                    inPrivateSection = false
                }
                continue
            }
            if inPrivateSection, !includingPrivateDomains { continue }
            try builder.add(String(decoding: line, as: UTF8.self), line: lineNumber)
        }
        return PublicSuffixRules(entries: builder.entries, ruleCount: builder.ruleCount, sections: sections)
    }

    /// Compiles rules given one per string, in the list's syntax, without comments.
    static func compile(rules: some Sequence<String>, onto base: PublicSuffixRules? = nil) throws(CookieError) -> PublicSuffixRules {
        var builder = Builder(entries: base?.entries ?? [:], ruleCount: base?.ruleCount ?? 0)
        for (index, rule) in rules.enumerated() {
            try builder.add(rule.trimmingCharacters(in: .whitespaces), line: index + 1)
        }
        return PublicSuffixRules(entries: builder.entries, ruleCount: builder.ruleCount, sections: base?.sections ?? [])
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// Accumulates rules into the table.
    private struct Builder {
        var entries: [Substring: Flags] = [:]
        var ruleCount = 0

        mutating func add(_ rule: String, line: Int) throws(CookieError) {
            var body = Substring(rule)
            var flag = Flags.normal
            if body.hasPrefix("!") {
                flag = .exception
                body = body.dropFirst()
            } else if body == "*" {
                ruleCount += 1  // the implicit rule, written out: nothing to store
                return
            } else if body.hasPrefix("*.") {
                flag = .wildcard
                body = body.dropFirst(2)
            }
            let dot = UInt8(ascii: ".")
            var labels = 1, previous = dot, isASCII = true, hasUpperCase = false
            for byte in body.utf8 {
                if byte == dot {
                    guard previous != dot else { throw invalid(rule, line, "a label is empty") }
                    labels += 1
                } else if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "!") {
                    throw invalid(rule, line, "'*' may only be the whole leftmost label, '!' only the first character")
                }
                if byte >= 0x80 { isASCII = false } else if (0x41...0x5A).contains(byte) { hasUpperCase = true }
                previous = byte
            }
            guard previous != dot else { throw invalid(rule, line, "a label is empty") }
            if flag == .exception, labels < 2 {
                throw invalid(rule, line, "an exception rule names a domain below a public suffix")
            }
            let domain: String
            if isASCII {
                domain = hasUpperCase ? body.lowercased() : String(body)
            } else {
                var asciiLabels: [String] = []
                let lowered = body.lowercased().precomposedStringWithCanonicalMapping
                for label in lowered.utf8.split(separator: dot) {
                    guard let ascii = Punycode.asciiLabel(String(decoding: label, as: UTF8.self)) else {
                        throw invalid(rule, line, "a label is longer than \(Punycode.maxLabelScalars) characters")
                    }
                    asciiLabels.append(ascii)
                }
                domain = asciiLabels.joined(separator: ".")
            }
            entries[Substring(domain), default: []].insert(flag)
            ruleCount += 1
            // The parents, so that a lookup can stop at the first suffix the table lacks.
            var parent = Substring(domain)
            while let dotIndex = parent.utf8.firstIndex(of: dot) {
                parent = parent[parent.utf8.index(after: dotIndex)...]
                if entries[parent] == nil { entries[Substring(String(parent))] = [] }
            }
        }

        private func invalid(_ rule: String, _ line: Int, _ why: String) -> CookieError {
            CookieError(code: .publicSuffixListInvalidRule, message: "'\(rule)' is not a public suffix rule: \(why)", line: line)
        }
    }
}
