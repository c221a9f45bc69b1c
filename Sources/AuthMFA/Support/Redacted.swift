// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Shared pieces of the redacted `description`s and mirrors of secret-holding values.
enum Redacted {
    /// What a redacted field shows.
    static let marker = "<redacted>"
}
