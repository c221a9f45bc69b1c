// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Prints each step of the story as it runs and remembers whether every step did what it should.
final class StoryReport {
    private(set) var failures: [String] = []
    private let started = ContinuousClock.now
    var requests = 0
    var renewals = 0

    /// Runs one step; a thrown error or a false check marks it failed, and the story goes on.
    func step(_ title: String, _ body: () async throws -> String) async {
        print("▸ \(title)")
        do {
            let detail = try await body()
            print("  ✔ \(detail)")
        } catch let failure as StepFailure {
            failures.append("\(title): \(failure.reason)")
            print("  ✘ \(failure.reason)")
        } catch {
            failures.append("\(title): \(error)")
            print("  ✘ \(error)")
        }
    }

    /// Prints the summary line; true when every step succeeded.
    func finish() -> Bool {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("")
        print("summary: \(requests) requests, \(renewals) renewals, \(String(format: "%.2f", seconds)) s, \(failures.isEmpty ? "every step passed" : "\(failures.count) step(s) failed")")
        for failure in failures { print("  ✘ \(failure)") }
        return failures.isEmpty
    }
}

/// A step's check that did not hold.
struct StepFailure: Error {
    let reason: String
}

/// Throws a ``StepFailure`` with `reason` unless `condition` holds.
func check(_ condition: Bool, _ reason: @autoclosure () -> String) throws {
    if !condition { throw StepFailure(reason: reason()) }
}
