// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

extension MigrationProgress {
    /// A one-line text progress bar for terminals, such as `[##########----------]  50% 5000/10000`.
    ///
    /// ```swift
    /// let report = try await migration.run { progress in
    ///     if progress.done % 100 == 0 || progress.done == progress.total { print("\r" + progress.bar(), terminator: "") }
    /// }
    /// ```
    /// - Parameter width: The number of cells between the brackets (at least 1).
    public func bar(width: Int = 30) -> String {
        let cells = max(1, width)
        let fraction = min(max(fractionCompleted, 0), 1)
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let percent = String(Int((fraction * 100).rounded(.down)))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "] "
            + String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "% \(done)/\(total)"
    }
}
