// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Reads a named value out of an HTML page: the hidden `<input>` that carries a CSRF token in a
/// login form (Django's `csrfmiddlewaretoken`, Rails' `authenticity_token`, Flask-WTF's
/// `csrf_token`), or the `<meta>` tag that carries it in a page's head (Rails' `csrf-token`).
///
/// Not an HTML parser: it scans the start tags `input` and `meta` for their attributes
/// (any order, double, single or no quotes, any case) and decodes character references in the
/// value. That is all a server's own template produces for these fields. Comments and scripts
/// are not skipped; a token-shaped string there would be read only if it were a whole tag.
enum HTMLFormField {
    /// The most of a page that is read.
    static let scannedBytes = 1 << 20

    /// The value of the first `<input name="<name>" value="…">`, or the content of the first
    /// `<meta name="<name>" content="…">`, in `html`; nil when there is none.
    static func value(named name: String, in html: some Collection<UInt8>) -> String? {
        for (element, attributes) in tags(in: html) where attributes["name"] == name {
            if element == "input", let value = attributes["value"] { return value }
            if element == "meta", let content = attributes["content"] { return content }
        }
        return nil
    }

    /// Whether `html` has an `<input name="<name>">`.
    static func hasInput(named name: String, in html: some Collection<UInt8>) -> Bool {
        tags(in: html).contains { $0.element == "input" && $0.attributes["name"] == name }
    }

    /// The `input` and `meta` start tags of `html`, in order, with their attributes.
    private static func tags(in html: some Collection<UInt8>) -> [(element: String, attributes: [String: String])] {
        let bytes = Array(html.prefix(scannedBytes))
        var found: [(element: String, attributes: [String: String])] = []
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            var tag = Tag(bytes: bytes, position: open + 1)
            let element = tag.readName()
            let attributes = tag.readAttributes()
            index = max(tag.position, open + 1)
            if element == "input" || element == "meta" { found.append((element, attributes)) }
        }
        return found
    }

    /// A start tag being read, from just after its `<`.
    private struct Tag {
        let bytes: [UInt8]
        var position: Int

        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The tag or attribute name at the position, lower-cased; empty when there is none.
        mutating func readName() -> String {
            let start = position
            while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self).lowercased()
        }

        /// The attributes up to the tag's `>`: lower-cased names, decoded values (the first of
        /// a repeated name, as browsers keep it).
        mutating func readAttributes() -> [String: String] {
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                guard position < bytes.count, bytes[position] != UInt8(ascii: ">") else { break }
                if bytes[position] == UInt8(ascii: "/") {
                    position += 1
                    continue
                }
                let name = readName()
                if name.isEmpty { position += 1; continue }  // a stray `=` or quote
                skipSpace()
                var value = ""
                if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                    position += 1
                    skipSpace()
                    value = readValue()
                }
                if attributes[name] == nil { attributes[name] = value }
            }
            return attributes
        }

        private mutating func readValue() -> String {
            guard position < bytes.count else { return "" }
            let quote = bytes[position]
            let start: Int
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                position += 1
                start = position
                while position < bytes.count, bytes[position] != quote { position += 1 }
                defer { if position < bytes.count { position += 1 } }
                return CharacterReferences.decode(bytes[start..<position])
            }
            start = position
            while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") { position += 1 }
            return CharacterReferences.decode(bytes[start..<position])
        }

        private mutating func skipSpace() {
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0x0C
        }

        private static func endsName(_ byte: UInt8) -> Bool {
            isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }
    }

    /// HTML character references in an attribute value: the five named ones a template escapes
    /// with (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and numeric ones (`&#39;`, `&#x2F;`).
    /// Anything else stays as written.
    private enum CharacterReferences {
        static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

        static func decode(_ bytes: ArraySlice<UInt8>) -> String {
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.contains("&") else { return text }
            var result = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                result += rest[..<amp]
                let afterAmp = rest.index(after: amp)
                if let semicolon = rest[afterAmp...].prefix(12).firstIndex(of: ";"), let decoded = reference(rest[afterAmp..<semicolon]) {
                    result += decoded
                    rest = rest[rest.index(after: semicolon)...]
                } else {
                    result += "&"
                    rest = rest[afterAmp...]
                }
            }
            return result + rest
        }

        private static func reference(_ name: Substring) -> String? {
            if let named = named[String(name)] { return named }
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let code = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
