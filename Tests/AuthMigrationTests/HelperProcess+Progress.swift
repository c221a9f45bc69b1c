// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting

extension HelperProcess {
    /// The `migration-helper` executable and the variable that may hold its path.
    static let migrationHelper = (name: "migration-helper", override: "AUTHKIT_MIGRATION_HELPER")

    /// Reads lines until a `progress <done>/<total>` line with `done >= count`. Returns that
    /// `done`, or nil when the output ended first.
    func waitForProgress(atLeast count: Int) async -> Int? {
        for await line in lines {
            guard line.hasPrefix("progress "), let done = Int(line.dropFirst(9).prefix { $0 != "/" }) else { continue }
            if done >= count { return done }
        }
        return nil
    }
}
