// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import HTTPTypes
import Testing

/// Parsing of `Cache-Control` directives.
@Suite struct CacheControlTests {
    @Test func directivesAreCaseInsensitiveAndSpacesAreIgnored() {
        let directives = CacheControl(" Private ,MAX-AGE=60,  No-Cache, must-revalidate ,stale-if-error=\"30\"")
        #expect(directives.isPrivate)
        #expect(directives.noCache)
        #expect(directives.mustRevalidate)
        #expect(directives.maxAge == 60)
        #expect(directives.staleIfError == 30)
        #expect(!directives.noStore)
    }

    @Test func invalidAndConflictingValuesAreReadStrictly() {
        #expect(CacheControl("max-age=abc").maxAge == 0)
        #expect(CacheControl("max-age=-5").maxAge == 0)
        #expect(CacheControl("max-age").maxAge == 0)
        #expect(CacheControl("max-age=60, max-age=5").maxAge == 5)
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == Int.max)
        #expect(CacheControl("no-cache=\"Set-Cookie\"").noCache)
    }

    @Test func everyFieldOfAMessageIsRead() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cacheControl, value: "max-age=60"))
        fields.append(HTTPField(name: .cacheControl, value: "no-store"))
        let directives = CacheControl(fields)
        #expect(directives.maxAge == 60)
        #expect(directives.noStore)
        #expect(CacheControl(HTTPFields()) == CacheControl())
    }
}
