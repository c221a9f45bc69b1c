// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthSigning
import Testing

/// RFC 8941 decimals: one value whatever the spelling, and a parsed value serializes to text that
/// parses back equal (the fuzzer found `c=(1.2 "duYXR=x")` not parsing back equal: `1.200` and
/// `1.2` became two different `Double`s).
@Suite struct StructuredFieldDecimalTests {
    @Test(arguments: ["1.2", "1.20", "1.200", "0.1", "0.100", "-7.3", "-7.300", "123456789012.999", "0.001", "2.5", "999.0"])
    func aDecimalRoundTripsWhateverItsSpelling(text: String) throws {
        let item = try StructuredField.parseItem(text)
        let again = try StructuredField.parseItem(item.serialized)
        #expect(again == item, "\(text) → \(item.serialized)")
        #expect(again.serialized == item.serialized)
    }

    @Test func trailingZerosDoNotMakeAnotherValue() throws {
        #expect(try StructuredField.parseItem("1.200") == StructuredField.parseItem("1.2"))
        let dictionary = try StructuredField.parseDictionary(#"c=(1.200 "duYXR=x")"#)
        #expect(try StructuredField.parseDictionary(dictionary.serialized) == dictionary)
    }
}
