// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthSigning's RFC 8941 parser (`StructuredField.parseDictionary` and `parseItem`), which
/// reads `Signature-Input`, `Signature` and `Content-Digest` from the network. Contracts: a parsed
/// value serializes to text that parses back to an equal value and serializes the same again.
import AuthSigning
import Foundation
import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    if let dictionary = try? StructuredField.parseDictionary(text) {
        let serialized = dictionary.serialized
        trace("dictionary \(serialized)")
        let again = try? StructuredField.parseDictionary(serialized)
        require(again == dictionary, "dictionary \(serialized.debugDescription) does not parse back equal")
        require(again?.serialized == serialized, "dictionary serialization is not stable: \(serialized.debugDescription)")
    }
    if let item = try? StructuredField.parseItem(text) {
        let serialized = item.serialized
        trace("item \(serialized)")
        let again = try? StructuredField.parseItem(serialized)
        require(again == item, "item \(serialized.debugDescription) does not parse back equal")
        require(again?.serialized == serialized, "item serialization is not stable: \(serialized.debugDescription)")
    }
    return 0
}
