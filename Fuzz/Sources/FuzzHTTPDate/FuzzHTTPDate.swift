// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthCore's `HTTPDate.parse` (the `Date` header and HTTP-date `Retry-After` values) with
/// arbitrary header text. Contract: a parsed date formats (`HTTPDate.format`) as an IMF-fixdate
/// that parses back to the same date.
import AuthCore
import Foundation
import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    guard let date = HTTPDate.parse(text) else {
        trace("nil")
        return 0
    }
    let formatted = HTTPDate.format(date)
    trace("\(date.timeIntervalSince1970) -> \(formatted)")
    let again = HTTPDate.parse(formatted)
    require(again == date, "HTTPDate.format(\(date.timeIntervalSince1970)) = \"\(formatted)\" parses back as \(again.map { "\($0.timeIntervalSince1970)" } ?? "nil")")
    return 0
}
