import AuthCore
import HTTPTypes
import NIOHTTP1

/// AsyncHTTPClient's response fields, made into `HTTPFields` only when something reads the
/// response's `head`; the fields the pipeline reads on every response are found here directly.
struct ResponseHead: ResponseHeadSource {
    let headers: HTTPHeaders
    /// `Date` and `X-RateLimit-Remaining`, which the standard pipeline reads on every response,
    /// found in one pass over the fields rather than one pass each (the pass that also finds
    /// `Content-Length` for the transport, in `init(headers:contentLength:)`).
    ///
    /// Kept as positions, not values, so that the head fits the three words an existential holds
    /// in place: `AuthResponse` keeps it as `any ResponseHeadSource`, and a larger head is boxed,
    /// an allocation (and its release) on every response.
    private let date: Found
    private let remaining: Found

    /// A field as one pass found it.
    private enum Found {
        case absent
        /// Once, at this position among the fields.
        case at(UInt16)
        /// More than once, at a position past `UInt16.max`, or a name not looked for here:
        /// `value(_:)` reads the fields.
        case several

        mutating func add(at position: Int) {
            if case .absent = self, let position = UInt16(exactly: position) { self = .at(position) } else { self = .several }
        }
    }

    init(headers: HTTPHeaders) {
        var contentLength: String?
        self.init(headers: headers, contentLength: &contentLength)
    }

    /// The head of `headers`; `contentLength` is set, in the same pass, to the value of their
    /// first `Content-Length` field (nil without one), which the transport reads before the body.
    init(headers: HTTPHeaders, contentLength: inout String?) {
        self.headers = headers
        var date = Found.absent
        var remaining = Found.absent
        var length: String?
        for (position, header) in headers.enumerated() {
            switch header.name.utf8.count {
            case 4 where Self.isName(header.name, "date"): date.add(at: position)
            case 14 where length == nil && Self.isName(header.name, "content-length"): length = header.value
            case 21 where Self.isName(header.name, HTTPField.Name.rateLimitRemaining.canonicalName): remaining.add(at: position)
            default: continue
            }
        }
        self.date = date
        self.remaining = remaining
        contentLength = length
    }

    /// Every field whose name is valid, in order; values as `HTTPField` makes them (bytes a value
    /// may not hold become spaces).
    func headerFields() -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        for header in headers {
            // `append` reaches HTTPTypes' own specialized `replaceSubrange`; calling
            // `replaceSubrange` from here runs its unspecialized generic form (25 × the cost).
            if let name = ResponseFieldNames.name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    /// What `headerFields().value(name)` gives.
    func value(_ name: HTTPField.Name) -> String? {
        let found: Found
        let canonical = name.canonicalName
        switch canonical.utf8.count {
        case 4 where canonical == "date": found = date
        case 21 where sameBytes(canonical, HTTPField.Name.rateLimitRemaining.canonicalName): found = remaining
        default: found = .several
        }
        switch found {
        case .absent: return nil
        case .at(let position):
            let value = headers[headers.index(headers.startIndex, offsetBy: Int(position))].value
            return Self.isLegal(value) ? value : HTTPField(name: name, value: value).value
        case .several: return scan(name)
        }
    }

    /// What `headerFields().value(name)` gives, from a pass over the fields.
    private func scan(_ name: HTTPField.Name) -> String? {
        // Not NIO's `headers[name]`: its case fold takes `^` for `~` and control bytes for
        // punctuation, where HTTP names differ.
        let canonical = name.canonicalName
        var value: String?
        for header in headers where Self.isName(header.name, canonical) {
            // As `HTTPField` keeps it: as it is when legal, else with the bytes it may not hold made spaces.
            let field = Self.isLegal(header.value) ? header.value : HTTPField(name: name, value: header.value).value
            value = value.map { $0 + (name == .cookie ? "; " : ", ") + field } ?? field
        }
        return value
    }

    /// Whether `raw` names the field whose canonical name is `canonical`.
    private static func isName(_ raw: String, _ canonical: String) -> Bool {
        guard raw.utf8.count == canonical.utf8.count else { return false }
        return withUTF8Bytes(raw) { raw in withUTF8Bytes(canonical) { ResponseFieldNames.isName(raw, canonical: $0) } }
    }

    /// Whether `HTTPField` keeps `value` as it is (RFC 9110 §5.5): visible ASCII, obs-text,
    /// spaces and tabs, but neither first nor last.
    ///
    /// Eight bytes at a time while no byte of a word is a control byte: a `Date` value costs
    /// about 170 instructions instead of 300.
    static func isLegal(_ value: String) -> Bool {
        withUTF8Bytes(value, isLegal)
    }

    private static func isLegal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        guard first != 0x20, first != 0x09, last != 0x20, last != 0x09 else { return false }
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count, !holdsControlByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 || byte == 0x7F { return false }
            index += 1
        }
        return true
    }

    /// Whether one of the word's bytes is below 0x20 or is 0x7F (exact: the borrow trick finds
    /// whether such a byte exists, though not which).
    private static func holdsControlByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        let deletes = word ^ (ones &* 0x7F)
        let is0x7F = (deletes &- ones) & ~deletes & highs
        return below0x20 | is0x7F != 0
    }
}
