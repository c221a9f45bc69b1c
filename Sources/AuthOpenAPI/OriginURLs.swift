// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Synchronization

/// The `URL` of the origin (or base) requests last went to, kept: Foundation parses a URL string
/// in about a microsecond, and nearly every call of a generated client goes to the same one.
final class OriginURLs: Sendable {
    private let last = Mutex<(origin: String, url: URL)?>(nil)

    /// The URL of `origin` (`scheme://host[:port]`, perhaps with a path), nil when it is not one.
    func url(_ origin: String) -> URL? {
        if let last = last.withLock({ $0 }), last.origin == origin { return last.url }
        guard let url = URL(string: origin) else { return nil }
        last.withLock { $0 = (origin, url) }
        return url
    }
}
