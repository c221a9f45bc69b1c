// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes AuthMFA's `OTPKeyURI(parsing:)` (enrollment QR codes and pasted URIs), then the
/// generator the URI describes: a code now, at the last representable step, and a verification.
/// Contracts: errors are `MFAError`; a parsed URI's `uriString` parses back to an equal URI
/// (its documentation promises that any issuer and account round-trip); a TOTP code verifies at
/// the time it was made.
import AuthMFA
import Foundation
import FuzzSupport

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    let uri: OTPKeyURI
    do {
        uri = try OTPKeyURI(parsing: text)
    } catch {
        trace("error \(error)")
        return 0
    }
    trace("parsed \(uri)")
    let again = try? OTPKeyURI(parsing: uri.uriString)
    require(again == uri, "\(uri) does not round-trip through its uriString (got \(again.map { "\($0)" } ?? "an error"))")
    _ = uri.url
    switch uri.kind {
    case .totp:
        guard let totp = try? uri.makeTOTP() else {
            fatalError("makeTOTP failed for a parsed totp URI")
        }
        if let code = try? totp.code(at: fixedNow) {
            require((try? totp.verify(code, at: fixedNow)) != nil, "a TOTP code does not verify at the time it was made")
        }
        _ = totp.code(step: .max)
        _ = totp.startOfStep(.max)
    case .hotp(let counter):
        guard let hotp = try? uri.makeHOTP() else {
            fatalError("makeHOTP failed for a parsed hotp URI")
        }
        let code = hotp.code(counter: counter)
        require((try? hotp.verify(code, counter: counter, lookAhead: 2)) == counter, "an HOTP code does not verify at its counter")
    }
    return 0
}
