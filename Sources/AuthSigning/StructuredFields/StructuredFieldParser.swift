import Foundation

extension StructuredField {
    /// Parses a dictionary field value (RFC 8941 §4.2.2), such as `Signature-Input`.
    /// - Throws: ``StructuredFieldError`` for anything that is not a valid dictionary.
    public static func parseDictionary(_ text: String) throws(StructuredFieldError) -> Dictionary {
        var parser = Parser(text)
        parser.skipSpaces()
        let dictionary = try parser.dictionary()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected characters after the dictionary") }
        return dictionary
    }

    /// Parses a list field value (RFC 8941 §4.2.1): items and inner lists.
    /// - Throws: ``StructuredFieldError`` for anything that is not a valid list.
    public static func parseList(_ text: String) throws(StructuredFieldError) -> [Member] {
        var parser = Parser(text)
        parser.skipSpaces()
        let list = try parser.list()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected characters after the list") }
        return list
    }

    /// Parses an item field value (RFC 8941 §4.2.3).
    /// - Throws: ``StructuredFieldError`` for anything that is not a valid item.
    public static func parseItem(_ text: String) throws(StructuredFieldError) -> Item {
        var parser = Parser(text)
        parser.skipSpaces()
        let item = try parser.item()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected characters after the item") }
        return item
    }
}

/// A strict RFC 8941 parser over the UTF-8 bytes of a field value.
private struct Parser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }
    private var current: UInt8? { atEnd ? nil : bytes[index] }

    func error(_ message: String) -> StructuredFieldError { StructuredFieldError(offset: index, message: message) }

    mutating func skipSpaces() { while current == 0x20 { index += 1 } }
    private mutating func skipOWS() { while current == 0x20 || current == 0x09 { index += 1 } }

    mutating func list() throws(StructuredFieldError) -> [StructuredField.Member] {
        var result: [StructuredField.Member] = []
        while !atEnd {
            result.append(try itemOrInnerList())
            skipOWS()
            if atEnd { return result }
            guard current == UInt8(ascii: ",") else { throw error("expected ',' between list members") }
            index += 1
            skipOWS()
            if atEnd { throw error("a list may not end with ','") }
        }
        return result
    }

    mutating func dictionary() throws(StructuredFieldError) -> StructuredField.Dictionary {
        var result = StructuredField.Dictionary()
        while !atEnd {
            let key = try key()
            let member: StructuredField.Member
            if current == UInt8(ascii: "=") {
                index += 1
                member = try itemOrInnerList()
            } else {
                member = .item(StructuredField.Item(.boolean(true), parameters: try parameters()))
            }
            if let existing = result.entries.firstIndex(where: { $0.key == key }) {
                result.entries[existing].member = member
            } else {
                result.entries.append((key, member))
            }
            skipOWS()
            if atEnd { return result }
            guard current == UInt8(ascii: ",") else { throw error("expected ',' between dictionary members") }
            index += 1
            skipOWS()
            if atEnd { throw error("a dictionary must not end with ','") }
        }
        return result
    }

    private mutating func itemOrInnerList() throws(StructuredFieldError) -> StructuredField.Member {
        current == UInt8(ascii: "(") ? .innerList(try innerList()) : .item(try item())
    }

    private mutating func innerList() throws(StructuredFieldError) -> StructuredField.InnerList {
        index += 1
        var items: [StructuredField.Item] = []
        while !atEnd {
            skipSpaces()
            if current == UInt8(ascii: ")") {
                index += 1
                return StructuredField.InnerList(items, parameters: try parameters())
            }
            items.append(try item())
            guard current == 0x20 || current == UInt8(ascii: ")") else {
                throw error("expected a space or ')' in an inner list")
            }
        }
        throw error("an inner list is not closed with ')'")
    }

    mutating func item() throws(StructuredFieldError) -> StructuredField.Item {
        StructuredField.Item(try bareItem(), parameters: try parameters())
    }

    private mutating func parameters() throws(StructuredFieldError) -> StructuredField.Parameters {
        var result = StructuredField.Parameters()
        while current == UInt8(ascii: ";") {
            index += 1
            skipSpaces()
            let key = try key()
            var value = StructuredField.BareItem.boolean(true)
            if current == UInt8(ascii: "=") {
                index += 1
                value = try bareItem()
            }
            result[key] = value
        }
        return result
    }

    private mutating func key() throws(StructuredFieldError) -> String {
        guard let first = current, isLowercaseAlpha(first) || first == UInt8(ascii: "*") else {
            throw error("expected a key (a lower-case letter or '*')")
        }
        let start = index
        while let byte = current,
              isLowercaseAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "*") {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func bareItem() throws(StructuredFieldError) -> StructuredField.BareItem {
        guard let byte = current else { throw error("expected a value, found the end") }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: ":"): return .byteSequence(try byteSequence())
        case UInt8(ascii: "?"): return .boolean(try boolean())
        case UInt8(ascii: "*"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
            return .token(token())
        default: throw error("expected an integer, decimal, string, token, byte sequence or boolean")
        }
    }

    private mutating func number() throws(StructuredFieldError) -> StructuredField.BareItem {
        let start = index
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, isDigit(first) else { throw error("expected a digit") }
        var digits = 0, fraction = -1
        while let byte = current {
            if isDigit(byte) {
                digits += 1
                if fraction >= 0 { fraction += 1 }
            } else if byte == UInt8(ascii: "."), fraction < 0 {
                guard digits <= 12 else { throw error("a decimal has more than 12 integer digits") }
                fraction = 0
            } else {
                break
            }
            index += 1
            if fraction < 0, digits > 15 { throw error("an integer has more than 15 digits") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if fraction < 0 {
            guard let value = Int64(text) else { throw error("not a valid integer") }
            return .integer(value)
        }
        guard (1...3).contains(fraction), let value = Double(text) else {
            throw error("a decimal needs 1 to 3 fractional digits")
        }
        return .decimal(value)
    }

    private mutating func string() throws(StructuredFieldError) -> String {
        index += 1
        var out: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard let next = current, next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") else {
                    throw error("a string may only escape '\"' and '\\'")
                }
                out.append(next)
                index += 1
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case 0x20...0x7E:
                out.append(byte)
            default:
                throw error("a string may only hold printable ASCII")
            }
        }
        throw error("a string is not closed with '\"'")
    }

    private mutating func token() -> String {
        let start = index
        index += 1
        while let byte = current, isTokenCharacter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") {
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func byteSequence() throws(StructuredFieldError) -> Data {
        index += 1
        let start = index
        while let byte = current, byte != UInt8(ascii: ":") {
            guard isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
                    || byte == UInt8(ascii: "=") else {
                throw error("a byte sequence may only hold base64 characters")
            }
            index += 1
        }
        guard current == UInt8(ascii: ":") else { throw error("a byte sequence is not closed with ':'") }
        var encoded = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        // RFC 8941 §4.2.7: parsers should accept a byte sequence without its `=` padding.
        if !encoded.utf8.contains(UInt8(ascii: "=")), encoded.utf8.count % 4 > 1 {
            encoded += String(repeating: "=", count: 4 - encoded.utf8.count % 4)
        }
        guard let data = Data(base64Encoded: encoded) else { throw error("a byte sequence is not valid base64") }
        return data
    }

    private mutating func boolean() throws(StructuredFieldError) -> Bool {
        index += 1
        defer { index += 1 }
        switch current {
        case UInt8(ascii: "1"): return true
        case UInt8(ascii: "0"): return false
        default: throw error("a boolean must be ?1 or ?0")
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private func isLowercaseAlpha(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    private func isAlpha(_ byte: UInt8) -> Bool { isLowercaseAlpha(byte) || (byte >= 0x41 && byte <= 0x5A) }
    private func isTokenCharacter(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
