// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthCookie's `CookieDate.parse` (the RFC 6265 §5.1.1 `Expires` algorithm).
/// Contracts: a parsed date is in a year from 1601 on, and its IMF-fixdate form
/// (`HTTPDate.format`) parses back, as a cookie date, to the same instant.
import AuthCookie
import AuthCore
import Foundation
import FuzzSupport

/// 1601-01-01T00:00:00Z, the earliest cookie date.
let earliest = Date(timeIntervalSince1970: -11_644_473_600)

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    guard let date = CookieDate.parse(text) else {
        trace("nil")
        return 0
    }
    trace("\(date.timeIntervalSince1970)")
    require(date >= earliest, "CookieDate.parse gave \(date.timeIntervalSince1970), before 1601")
    let formatted = HTTPDate.format(date)
    require(CookieDate.parse(formatted) == date, "\"\(formatted)\" does not parse back as a cookie date to \(date.timeIntervalSince1970)")
    return 0
}
