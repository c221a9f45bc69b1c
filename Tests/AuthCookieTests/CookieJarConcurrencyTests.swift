// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

@Suite struct CookieJarConcurrencyTests {
    @Test func concurrentWritersAndReadersSeeAConsistentJar() async throws {
        let jar = CookieJar(configuration: .init(maxCookiesPerDomain: 1_000), now: TestClock().now)
        let origin = url("https://example.com/")
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        jar.setCookies(fromHeaderValues: ["w\(writer)-\(index)=\(index)"], for: origin)
                        _ = jar.cookieHeader(for: origin)
                    }
                }
            }
        }
        #expect(jar.count == 800)
        #expect(pairs(jar.cookieHeader(for: origin)).count == 800)
        #expect(Set(jar.allCookies.map(\.name)).count == 800)
    }
}
