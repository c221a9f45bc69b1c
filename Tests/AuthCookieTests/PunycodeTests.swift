// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Testing
@testable import AuthCookie

/// The RFC 3492 encoder that puts the list's international rules in their `xn--` form.
@Suite struct PunycodeTests {
    @Test(arguments: [
        ("bücher", "bcher-kva"), ("münchen", "mnchen-3ya"), ("公司", "55qx5d"), ("中国", "fiqs8s"), ("食狮", "85x722f"),
        ("ü", "tda"), ("bahnhof-zoo-ä", "bahnhof-zoo--rcb"), ("ελληνικά", "hxargifdar"),
        // RFC 3492 §7.1 (A) Arabic (Egyptian) and (B) Chinese (simplified).
        ("\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}",
         "egbpdaj6bu4bxfgehfvwxn"),
        ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
    ])
    func punycode(_ label: String, _ encoded: String) {
        #expect(Punycode.encode(label.unicodeScalars) == encoded)
        #expect(Punycode.asciiLabel(label) == "xn--" + encoded)
    }
}
