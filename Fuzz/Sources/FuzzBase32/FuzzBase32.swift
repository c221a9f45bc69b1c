// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthMFA's `Base32.decode` (OTP secrets typed by users or read from URIs and storage),
/// and `Base32.encode` of the raw input bytes. Contracts: errors are `MFAError` with a position
/// inside the text; decoded bytes re-encode (padded and unpadded) to text that decodes to the
/// same bytes; any bytes survive encode then decode.
import AuthMFA
import Foundation
import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = input.text
    do {
        let bytes = try Base32.decode(text)
        trace("\(bytes.count) bytes")
        for padding in [true, false] {
            let encoded = Base32.encode(bytes, padding: padding)
            require((try? Base32.decode(encoded)) == bytes, "decode(encode(bytes, padding: \(padding))) differs")
        }
    } catch {
        trace("error \(error)")
        if let position = error.position {
            require(position >= 0 && position <= text.utf8.count, "MFAError position \(position) outside the text")
        }
    }
    for padding in [true, false] {
        let encoded = Base32.encode(input.bytes, padding: padding)
        require((try? Base32.decode(encoded)) == input.bytes, "raw bytes do not survive encode then decode (padding \(padding))")
    }
    return 0
}
