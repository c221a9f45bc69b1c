// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthCookie with server and stored input: each input line is a `Set-Cookie` value,
/// parsed (`SetCookie(parsing:)`) and stored in a `CookieJar` for an https and an http URL; the jar
/// then builds `Cookie` headers, and its snapshot is encoded, decoded and restored (the persisted
/// form). The whole input is also decoded as a stored `CookieJarSnapshot` and restored.
/// Contracts: a parsed cookie has a non-empty name and no control character but tab; a built
/// `Cookie` header has no CR, LF or NUL; a snapshot reads back equal.
import AuthCookie
import Foundation
import FuzzSupport

let urls = [
    URL(string: "https://www.example.com/a/b")!,
    URL(string: "http://example.com/")!,
    URL(string: "https://sub.www.example.com/a/b/c?q=1")!,
]

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let jar = CookieJar(configuration: .init(persistSessionCookies: true), now: { fixedNow })
    for line in input.text.split(separator: "\n", omittingEmptySubsequences: false).prefix(16) {
        let header = String(line)
        if let parsed = SetCookie(parsing: header) {
            trace("parsed \(parsed)")
            require(!parsed.name.isEmpty, "SetCookie parsed an empty name")
            require(!(parsed.name + parsed.value).unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F },
                    "SetCookie kept a control character")
        }
        for url in urls.prefix(2) {
            do { _ = try jar.setCookie(fromHeaderValue: header, for: url) } catch { trace("rejected: \(error)") }
        }
    }
    checkHeaders(jar)
    let snapshot = jar.snapshot()
    if let stored = try? JSONEncoder().encode(snapshot) {
        let decoded = try? JSONDecoder().decode(CookieJarSnapshot.self, from: stored)
        require(decoded == snapshot, "a cookie jar snapshot does not read back equal")
        checkHeaders(CookieJar(snapshot: decoded ?? snapshot, now: { fixedNow }))
    }
    if let stored = try? JSONDecoder().decode(CookieJarSnapshot.self, from: input.data) {
        trace("stored snapshot of \(stored.cookies.count) cookies")
        let restored = CookieJar(snapshot: stored, now: { fixedNow })
        checkHeaders(restored)
        restored.removeExpired()
    }
    return 0
}

func checkHeaders(_ jar: CookieJar) {
    for url in urls {
        guard let header = jar.cookieHeader(for: url) else { continue }
        trace("Cookie: \(header.count) characters")
        require(!header.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "a Cookie header holds CR, LF or NUL")
    }
}
