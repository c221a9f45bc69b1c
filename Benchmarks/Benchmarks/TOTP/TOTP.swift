// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// TOTP verification with a ±1 window against a bare HMAC-SHA1 over an 8-byte message, in the
// same run. A ±1 window computes 3 candidate codes (TOTP.verify looks at every candidate, so the
// position of the match does not change the work); the rate per candidate is 3 × the verify rate.
//
// Target: rate per candidate ≥ 0.8 × the bare HMAC rate, i.e. the paired ratio (verify time ÷
// 3 bare HMACs, × 1000) ≤ 1250.
import AuthMFA
import Benchmark
import BenchmarkSupport
import Crypto
import Foundation

/// RFC 6238's SHA-1 test secret.
let secretBytes = Array("12345678901234567890".utf8)
let instant = Date(timeIntervalSince1970: 1_700_000_000)

struct TOTPFixture {
    let totp: AuthMFA.TOTP
    let code: String
}

/// A TOTP and a code that matches the last candidate of the ±1 window (`matching`) or none.
func makeFixture(matching: Bool) throws -> TOTPFixture {
    let totp = try AuthMFA.TOTP(secret: OTPSecret(bytes: secretBytes))
    let step = try totp.step(at: instant)
    let candidates = Set((step - 1...step + 1).map { totp.code(step: $0) })
    var code = totp.code(step: step + 1)
    if !matching {
        var guess = 0
        while candidates.contains(String(format: "%06d", guess)) { guess += 1 }
        code = String(format: "%06d", guess)
    }
    let expected: UInt64? = matching ? step + 1 : nil
    guard try totp.verify(code, at: instant, window: 1) == expected else {
        throw BenchmarkSetupError("the prepared code does not verify as expected")
    }
    return TOTPFixture(totp: totp, code: code)
}

/// The 8-byte big-endian counter HOTP MACs.
func counterMessage() throws -> [UInt8] {
    let totp = try AuthMFA.TOTP(secret: OTPSecret(bytes: secretBytes))
    return withUnsafeBytes(of: try totp.step(at: instant).bigEndian) { Array($0) }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(2), maxIterations: 2_000)

    var paired = configuration
    paired.metrics = Paired.metrics

    for (name, matching) in [("code = last candidate", true), ("code matches none", false)] {
        Benchmark("TOTP.verify window 1, \(name)", configuration: paired) { (benchmark: Benchmark, setup: (TOTPFixture, [UInt8])) in
            let (fixture, message) = setup
            let key = SymmetricKey(data: secretBytes)
            // Paired baseline: the bare HMAC; the paired ratio divides by 3 HMACs, one per candidate.
            Paired.measure(benchmark, baseline: {
                for _ in benchmark.scaledIterations {
                    blackHole(HMAC<Insecure.SHA1>.authenticationCode(for: identity(message), using: key))
                }
            }, subject: {
                for _ in benchmark.scaledIterations {
                    blackHole(try? fixture.totp.verify(identity(fixture.code), at: identity(instant), window: 1))
                }
            }, denominator: { 3 * $0 })
        } setup: {
            (try makeFixture(matching: matching), try counterMessage())
        }
    }

    Benchmark("HMAC-SHA1 authenticationCode, 8 bytes, prepared key (baseline)", configuration: configuration) { benchmark, message in
        let key = SymmetricKey(data: secretBytes)
        CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(HMAC<Insecure.SHA1>.authenticationCode(for: identity(message), using: key))
            }
        }
    } setup: {
        try counterMessage()
    }

    Benchmark("HMAC-SHA1 copy of keyed state + update + finalize, 8 bytes (reference)", configuration: configuration) { benchmark, message in
        let keyed = HMAC<Insecure.SHA1>(key: SymmetricKey(data: secretBytes))
        CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                var mac = keyed
                mac.update(data: identity(message))
                blackHole(mac.finalize())
            }
        }
    } setup: {
        try counterMessage()
    }
}
