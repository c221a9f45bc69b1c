// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Prints the events of interest as they happen.
final class EventPrinter: Sendable {
    private let task: Task<Void, Never>

    init(_ events: AuthEvents) {
        let stream = events.stream()
        task = Task {
            for await event in stream {
                switch event {
                case .renewed, .signedIn: continue
                default: print("  · event: \(event)")
                }
            }
        }
    }

    func stop() { task.cancel() }
}
