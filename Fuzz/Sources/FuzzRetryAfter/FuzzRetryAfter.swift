// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Fuzzes `Retry-After` handling: AuthCore's `RetryAfter.seconds(_:now:)`, then the same value as
/// the header of a 429 answered by a fake transport, through `RateLimitObserver` and
/// `RetryMiddleware` on a manual clock (which converts the seconds to a `Duration` and caps it).
/// Contracts: a delay is never negative or NaN; the middleware never waits longer than
/// `maxRetryAfter` nor past its total budget, and retries at most `maxAttempts - 1` times.
import AuthCore
import Foundation
import FuzzSupport
import HTTPTypes
import Synchronization

/// A clock that never sleeps: `sleep` records the duration and moves `now` on by it.
final class ManualClock: AuthClock {
    private let state = Mutex<(now: Date, sleeps: [Duration])>((fixedNow, []))
    func now() -> Date { state.withLock { $0.now } }
    func sleep(for duration: Duration) async throws {
        state.withLock { state in
            let (seconds, atto) = duration.components
            state.now += Double(seconds) + Double(atto) / 1e18
            state.sleeps.append(duration)
        }
    }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }
}

/// How many requests reached the transport.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

let policy = RetryPolicy(maxAttempts: 3, maxRetryAfter: .seconds(60), totalBudget: .seconds(120))
let events = AuthEvents()
let url = URL(string: "https://api.example.com/v1/items")!

@main
enum Main {
    static func main() { runLibFuzzer(fuzz) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let value = FuzzInput(data, size).text
    if let seconds = RetryAfter.seconds(value, now: fixedNow) {
        trace("seconds \(seconds)")
        require(seconds >= 0, "RetryAfter.seconds(\(value.debugDescription)) = \(seconds)")
    } else {
        trace("nil")
    }

    let clock = ManualClock()
    var fields = HTTPFields()
    fields[.retryAfter] = value
    fields[HTTPField.Name("X-RateLimit-Reset")!] = value
    fields[HTTPField.Name("X-RateLimit-Remaining")!] = "0"
    let response = AuthResponse(status: .tooManyRequests, headerFields: fields)
    let calls = Counter()
    let transport = ClosureTransport { _ in
        calls.increment()
        return response
    }
    let client = AuthClient(transport: transport, middlewares: [
        RetryMiddleware(policy: policy, clock: clock, random: { 0.5 }),
        RateLimitObserver(events: events, clock: clock),
    ])
    let result = blocking { try await client.send(.get, url) }
    if case .failure(let error) = result { fatalError("a 429 must come back as a response, not \(error)") }
    let sleeps = clock.sleeps
    trace("calls \(calls.value), sleeps \(sleeps)")
    require(calls.value <= policy.maxAttempts, "more attempts than maxAttempts")
    for sleep in sleeps {
        require(sleep >= .zero && sleep <= policy.maxRetryAfter, "slept \(sleep) for Retry-After \(value.debugDescription)")
    }
    require(sleeps.reduce(Duration.zero, +) <= policy.totalBudget, "slept past the total budget: \(sleeps)")
    return 0
}
