// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Testing

/// `Origin.defaultPort(for:)`: the package's one table of default ports, which origins, host
/// fields, DPoP `htu` and RFC 9421 `@authority` normalise by.
@Suite struct DefaultPortTests {
    @Test(arguments: [("https", 443), ("wss", 443), ("http", 80), ("ws", 80), ("ftp", 0), ("", 0), ("HTTPS", 0), ("http2", 0)])
    func defaultPorts(scheme: String, port: Int) {
        #expect(Origin.defaultPort(for: scheme) == port)
    }

    @Test func originsAndHostFieldsUseTheTable() {
        #expect(Origin(scheme: "HTTPS", host: "a.example").port == 443)
        #expect(Origin(scheme: "ws", host: "a.example").port == 80)
        #expect(Origin(scheme: "ftp", host: "a.example").port == 0)
        #expect(Origin(scheme: "wss", host: "a.example", port: 443).hostField == "a.example")
        #expect(Origin(scheme: "https", host: "a.example", port: 80).hostField == "a.example:80")
        #expect(Origin(scheme: "http", host: "::1", port: 80).hostField == "[::1]")
    }
}
