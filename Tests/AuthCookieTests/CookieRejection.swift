// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import AuthCookie

/// Stores one `Set-Cookie` value through the jar's throwing API and returns why it was ignored,
/// or nil when the jar stored it.
func rejection(of header: String, from origin: URL, in jar: CookieJar) -> CookieError? {
    do {
        try jar.setCookie(fromHeaderValue: header, for: origin)
        return nil
    } catch {
        return error
    }
}
