// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

extension HTTPField.Name {
    /// A field name from a literal known to be a valid token; falls back to a safe name rather than
    /// trapping if a literal were ever mistyped.
    @usableFromInline
    static func literal(_ name: String) -> HTTPField.Name {
        HTTPField.Name(name) ?? HTTPField.Name("X-Invalid-Field-Name") ?? .contentType
    }
}
